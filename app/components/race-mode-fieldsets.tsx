/**
 * The race-setup fieldsets of the timing modes beyond a plain start-to-finish race: enduro segments, multi-run,
 * team relay, multistage and biathlon (timing.md section 3 settings). Each is a group of the setup form on
 * /race/:id/admin, filled from the saved settings or from a refused form's values.
 */
import {
  BIATHLON_PENALTY_TYPE_LABELS,
  BIATHLON_RESULT_CALCULATION_LABELS,
  BIATHLON_RESULT_CALCULATIONS,
  BIATHLON_TIMES_TO_DISPLAY,
  BIATHLON_TIMES_TO_DISPLAY_LABELS,
  RANGE_DATA_DEVICE_TYPES,
} from "../../core/timing/biathlon";
import { ENDURO_COLUMN_OPTION_LABELS, ENDURO_COLUMN_OPTIONS } from "../../core/timing/enduro";
import { MULTI_RUN_MODE_LABELS, MULTI_RUN_MODES } from "../../core/timing/multi-run";
import { DEFAULT_RELAY_MEMBER_COUNT, TEAM_LAP_TIME_DISPLAY_LABELS, TEAM_LAP_TIME_DISPLAYS } from "../../core/timing/relay";
import type { RaceSettings } from "../../schema/race/settings";
import { CheckboxField, RadioField, SelectField, type Choice } from "./form-kit";
import { SettingSelect, SettingText, type SettingValues } from "./setting-fields";

/** A setup form's current values: a refused form's text, else what is saved. */
export interface SetupFieldValues extends SettingValues {
  checked: (name: string, stored: boolean) => boolean;
}

export interface RaceModeChoices {
  teamFields: Choice[];
  points: { id: string; name: string }[];
  stages: { id: string; name: string }[];
  devices: { id: string; type: string; name: string }[];
}

/** The saved settings as the page has them (its time fields are text there; none of them is used here). */
type ModeSettings = Omit<RaceSettings, "same_time_threshold" | "start_interval" | "start_gap">;

export function RaceModeFieldsets({ v, checked, errors, settings, data }: SetupFieldValues & { settings: ModeSettings; data: RaceModeChoices }) {
  const form = { v, errors };
  return (
    <>
      <fieldset className="setup-group">
        <legend>Segments &amp; Timing Devices</legend>
        <p className="field-hint">
          Enduro: select timing devices for each point (on the Timing points page), and on each course put a Start point before each timed segment&apos;s
          finish. The finish&apos;s minimum split is the minimum time for that descent segment. Transfer stages, between one finish and the next start, are not
          timed.
        </p>
        <CheckboxField
          name="is_fastest_lap"
          label="Fastest lap: a segment ridden more than once counts its fastest run"
          defaultChecked={checked("is_fastest_lap", settings.is_fastest_lap)}
        />
        <CheckboxField
          name="is_free_segment"
          label="Free order: racers ride the segments in any order"
          hint="The segments are then listed on the Segments page, with course groups and meta start groups. Saving with this on keeps one course per segment: courses that have no segment are deleted and the start groups are rebuilt."
          defaultChecked={checked("is_free_segment", settings.is_free_segment)}
        />
        <SettingSelect
          form={form}
          name="enduro_column_option"
          stored={settings.enduro_column_option}
          label="Enduro columns"
          choices={ENDURO_COLUMN_OPTIONS.map((c) => ({ value: c, label: ENDURO_COLUMN_OPTION_LABELS[c] }))}
        />
      </fieldset>

      <fieldset className="setup-group">
        <legend>Runs</legend>
        <CheckboxField
          name="is_multi_run"
          label="Racers run the course several times (fixed run count)"
          defaultChecked={checked("is_multi_run", settings.multi_run_option === "fixed")}
        />
        <SettingText
          form={form}
          name="run_count"
          stored={settings.run_count}
          label="Run count"
          inputMode="numeric"
          hint="Runs each racer makes; leave empty for 2. Each run starts at a read of the course's start point."
        />
        <SettingSelect
          form={form}
          name="multi_run_mode"
          stored={settings.multi_run_mode}
          label="Result from the runs"
          choices={MULTI_RUN_MODES.map((m) => ({ value: m, label: MULTI_RUN_MODE_LABELS[m] }))}
        />
      </fieldset>

      <fieldset className="setup-group">
        <legend>Relay</legend>
        <CheckboxField
          name="is_relay"
          label="Team relay: each team's racers run legs one after another"
          defaultChecked={checked("is_relay", settings.is_relay)}
        />
        <SettingText
          form={form}
          name="relay_member_count"
          stored={settings.relay_member_count}
          label="Racers per team"
          inputMode="numeric"
          hint={`Legs a team runs; leave empty for ${DEFAULT_RELAY_MEMBER_COUNT}.`}
        />
        <SettingSelect
          form={form}
          name="team_field"
          stored={settings.team_field ?? "team"}
          label="Team field"
          hint="The racer field naming each racer's team."
          choices={data.teamFields}
        />
        <SettingSelect
          form={form}
          name="team_order"
          stored={settings.team_order}
          label="Leg field"
          hint="The racer field giving each racer's leg (1 runs first)."
          choices={[{ value: "", label: "Bib order within the team" }, ...data.teamFields.filter((f) => f.value !== "team" && f.value !== "club")]}
        />
        <SettingSelect
          form={form}
          name="team_relay_transition_point"
          stored={settings.team_relay_transition_point}
          label="Handover point"
          hint="Where one leg hands over to the next. With none, a leg ends at its racer's finish."
          choices={[{ value: "", label: "The finish" }, ...data.points.map((p) => ({ value: p.id, label: p.name }))]}
        />
        <RadioField
          name="team_lap_time_display"
          legend="Leg times shown"
          defaultValue={v("team_lap_time_display", settings.team_lap_time_display)}
          error={errors.team_lap_time_display}
          choices={TEAM_LAP_TIME_DISPLAYS.map((d) => ({ value: d, label: TEAM_LAP_TIME_DISPLAY_LABELS[d] }))}
        />
      </fieldset>

      <fieldset className="setup-group">
        <legend>Stages</legend>
        <SelectField
          name="prev_race"
          label="Stage before this one"
          hint={
            settings.prev_stages_count > 0
              ? `This race is stage ${settings.prev_stages_count + 1}. Results offer this stage only and all stages.`
              : "For a multistage race: the race run as the previous stage."
          }
          defaultValue={v("prev_race", settings.prev_race)}
          error={errors.prev_race}
          choices={[{ value: "", label: "None: not a later stage" }, ...data.stages.map((r) => ({ value: r.id, label: r.name }))]}
        />
      </fieldset>

      <fieldset className="setup-group">
        <legend>Biathlon</legend>
        <RadioField
          name="biathlon_penalty_type"
          legend="Penalty type"
          defaultValue={v("biathlon_penalty_type", settings.biathlon_penalty_type)}
          error={errors.biathlon_penalty_type}
          choices={[
            { value: "", label: "Not a biathlon" },
            { value: "lap", label: BIATHLON_PENALTY_TYPE_LABELS.lap, hint: "a loop skied per missed shot, counted by the penalty-lap recorder" },
            { value: "time", label: BIATHLON_PENALTY_TYPE_LABELS.time, hint: "60 seconds per missed shot unless the course says otherwise" },
          ]}
        />
        <SettingSelect
          form={form}
          name="biathlon_penalty_device"
          stored={settings.biathlon_penalty_device}
          label="Penalty-lap recorder"
          hint="With penalty laps: the device at the penalty loop. Its timing point is the loop."
          choices={[{ value: "", label: "None" }, ...data.devices.map((d) => ({ value: d.id, label: d.name }))]}
        />
        <SelectField
          name="biathlon_range_device"
          label="Range-data device"
          hint="The device that sends misses per shooting. Timers can also type them on the keypad."
          defaultValue={v("biathlon_range_device", settings.biathlon_range_device)}
          error={errors.biathlon_range_device}
          choices={[
            { value: "", label: "None" },
            ...data.devices.filter((d) => (RANGE_DATA_DEVICE_TYPES as readonly string[]).includes(d.type)).map((d) => ({ value: d.id, label: d.name })),
          ]}
        />
        <SettingSelect
          form={form}
          name="biathlon_result_calc"
          stored={settings.biathlon_result_calc}
          label="Result calculation"
          choices={BIATHLON_RESULT_CALCULATIONS.map((c) => ({ value: c, label: BIATHLON_RESULT_CALCULATION_LABELS[c] }))}
        />
        <SettingSelect
          form={form}
          name="biathlon_column_option"
          stored={settings.biathlon_column_option}
          label="Times to display"
          choices={BIATHLON_TIMES_TO_DISPLAY.map((c) => ({ value: c, label: BIATHLON_TIMES_TO_DISPLAY_LABELS[c] }))}
        />
      </fieldset>
    </>
  );
}
