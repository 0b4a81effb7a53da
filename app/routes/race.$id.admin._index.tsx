import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import {
  BIATHLON_PENALTY_TYPE_LABELS,
  BIATHLON_RESULT_CALCULATION_LABELS,
  BIATHLON_RESULT_CALCULATIONS,
  BIATHLON_TIMES_TO_DISPLAY,
  BIATHLON_TIMES_TO_DISPLAY_LABELS,
  RANGE_DATA_DEVICE_TYPES,
} from "../../core/timing/biathlon";
import { deviceDisplayName } from "../../core/timing/devices";
import { MULTI_RUN_MODE_LABELS, MULTI_RUN_MODES } from "../../core/timing/multi-run";
import { ENDURO_COLUMN_OPTION_LABELS, ENDURO_COLUMN_OPTIONS } from "../../core/timing/enduro";
import {
  COLUMN_OPTION_LABELS,
  COLUMN_OPTIONS,
  LAP_DISPLAY_DIFF_LABELS,
  LAP_DISPLAY_DIFFS,
  RANK_DISPLAY_LABELS,
  RANK_DISPLAYS,
  SPLIT_DISPLAY_LABELS,
  SPLIT_DISPLAYS,
  SPLIT_TIMING_LABELS,
  SPLIT_TIMINGS,
} from "../../core/timing/result-columns";
import { DEFAULT_RELAY_MEMBER_COUNT, TEAM_LAP_TIME_DISPLAY_LABELS, TEAM_LAP_TIME_DISPLAYS } from "../../core/timing/relay";
import { defaultStartOption } from "../../core/timing/validation";
import type { TimingDeviceDoc, TimingPointDoc } from "../../schema/race/documents";
import { sportsSorted, sportTechniques } from "../../core/timing/sports";
import { openDb } from "../../schema/d1";
import { Race } from "../../schema/entities/classes";
import { protectedObjectOf } from "../../schema/entities/registry";
import { publishFieldChanges } from "../../workers/data-api/hub-client";
import { deleteRace, localInputOf, timeZoneNames } from "../../workers/services/race-setup";
import { roomStub } from "../../workers/services/race-access";
import { stageChoices, stagesBefore } from "../../workers/services/race-stages";
import { requireRaceAccess } from "../race-admin.server";
import { pageQuery, readPostedForm, refuse, unknownIntent } from "../forms/posted-form.server";
import { parseTimedForm } from "../race-clock.server";
import { raceChangesOf, racerFieldsOf, settingsChangesOf, setupFormSchema } from "../race-setup.server";
import { exactSeconds } from "../../core/time/format";
import { TIMING_MODE_CHOICES } from "../components/race-setup-choices";
import { CheckboxField, ConfirmPanel, RadioField, SavedNotice, SelectField, SetupForm, TextField, useReplyFor } from "../components/form-kit";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { race, room, may } = await requireRaceAccess(request, context, params.id, "view");
  const db = openDb(context.env.DB);
  const [entity, settings, counts, devices, points, stages] = await Promise.all([
    room.raceEntity(),
    room.settings(),
    room.counts(),
    room.documents("TimingDevice"),
    room.documents("TimingPoint"),
    stageChoices(db, race),
  ]);
  if (!entity || !settings) throw new Response("Not found", { status: 404 });
  const row = entity.row;
  const timezone = String(row.timezone);
  const query = pageQuery(request);
  const sport = row.sport === null ? null : String(row.sport);
  const sports = sportsSorted()
    .filter((s) => s.isRace)
    .map((s) => s.name);
  return {
    raceId: race.id,
    may,
    saved: query.saved ?? stageNotice(new URL(request.url).searchParams),
    confirmDelete: query.confirm === "delete" && may.delete,
    counts: { racers: counts.racers, crossings: counts.crossings },
    mtimes: entity.mtimes,
    race: {
      name: String(row.name),
      sport,
      start: localInputOf(Number(row.start_time), timezone),
      end: row.end_time === null ? "" : localInputOf(Number(row.end_time), timezone),
      timezone,
      location: row.location === null ? "" : String(row.location),
      visibility: String(row.visibility),
    },
    settings: {
      ...settings,
      same_time_threshold: exactSeconds(settings.same_time_threshold),
      start_interval: exactSeconds(settings.start_interval),
      start_gap: exactSeconds(settings.start_gap),
    },
    sportChoices: sport && !sports.includes(sport) ? [sport, ...sports] : sports,
    techniques: sport ? sportTechniques(sport) : [],
    timeZones: timeZoneNames(),
    devices: devices.map((d) => ({ id: d.id, type: (d.data as TimingDeviceDoc).type, name: deviceDisplayName(d.data as TimingDeviceDoc) })),
    stages: stages.map((r) => ({ id: r.id, name: `${r.name} (${localInputOf(r.startTime, timezone).slice(0, 10)})` })),
    points: points.map((p) => ({ id: p.id, name: (p.data as TimingPointDoc).name })),
    // Fields that can name a team or a leg: the racer's own team and club, and custom fields holding a value.
    teamFields: [
      { value: "team", label: "Team" },
      { value: "club", label: "Club" },
      ...racerFieldsOf(settings.fields_list)
        .filter((f) => !TEAMLESS_FIELD_TYPES.has(f.type))
        .map((f) => ({ value: f.key, label: f.display })),
    ],
  };
}

/** Select choices from an option list and its labels. */
function choicesOf<T extends string>(values: readonly T[], labels: Record<T, string>) {
  return values.map((value) => ({ value, label: labels[value] }));
}

/** Custom field types that hold no team name or leg number. */
const TEAMLESS_FIELD_TYPES: ReadonlySet<string> = new Set(["boolean", "checkbox", "category"]);

/** The notice after bringing in stage times: "?stages=40-2" is 40 racers matched, 2 not found. */
function stageNotice(params: URLSearchParams): string | null {
  const match = /^(\d+)-(\d+)$/.exec(params.get("stages") ?? "");
  if (!match) return null;
  const [, matched, unmatched] = match;
  return `Stage times brought in for ${matched} ${matched === "1" ? "racer" : "racers"}.${unmatched === "0" ? "" : ` ${unmatched} not found in the stage before (matched by person, else bib).`}`;
}

const mtimesSchema = z.record(z.string(), z.number().int().min(0));

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { race, room, may } = await requireRaceAccess(request, context, params.id, "edit");
  const posted = await readPostedForm(request);
  if (posted.intent === "delete") {
    if (!may.delete) throw new Response("Forbidden", { status: 403 });
    const result = await deleteRace({ ...context, db: openDb(context.env.DB) }, race, room);
    return result.ok ? redirect("/manage") : refuse(posted, { form: result.message }, 409);
  }
  if (posted.intent === "stages") {
    // Brings in the earlier stages' times from the stage before (checked to be this club's when it was chosen).
    const prevRace = (await room.settings())?.prev_race ?? null;
    if (prevRace === null) return refuse(posted, { form: "Choose the stage before this one first" });
    const imported = await room.importStageTimes(await roomStub(context.env, prevRace).stageResults());
    if (!imported.ok) return refuse(posted, imported.errors);
    return redirect(`/race/${race.id}/admin?stages=${imported.value.matched}-${imported.value.unmatched}`);
  }
  if (posted.intent !== "save") return unknownIntent(posted);
  const parsed = parseTimedForm(setupFormSchema, posted);
  if (!parsed.ok) return parsed.reply;
  const stages = await stagesBefore(context.env, openDb(context.env.DB), race, parsed.value.prev_race);
  if (!stages.ok) return refuse(posted, { prev_race: stages.error });
  // The room's own checks run before anything is written, so a refused setup (a 1-lap biathlon) leaves the race as it was.
  const settingsChanges = { ...settingsChangesOf(parsed.value), prev_stages_count: stages.count };
  const problems = await room.settingsProblems(settingsChanges);
  if (problems) return refuse(posted, problems);
  let base: Record<string, number> | null = null;
  try {
    const stated = mtimesSchema.safeParse(JSON.parse(posted.values.field_mtimes ?? "null"));
    base = stated.success ? stated.data : null;
  } catch {
    base = null;
  }
  const changed = await room.changeRace(raceChangesOf(parsed.value), base);
  if (!changed) throw new Response("Not found", { status: 404 });
  if (!changed.ok) {
    // Nothing was written; the page reloads with the current values.
    return refuse(
      posted,
      {
        form: `Someone else changed ${changed.stale.join(", ").replaceAll("_", " ")} since you opened this page. The form now shows the current values; make your changes again.`,
      },
      409,
    );
  }
  // Data-service subscribers of this race hear the change, as they would for a change made through the API.
  publishFieldChanges(context, Race, race.id, changed.changed, changed.mtimes, protectedObjectOf(Race, { ...changed.row, uuid: race.id }));
  // The settings follow the race fields: a stale race write (the likely refusal) leaves both untouched, and
  // the form's own checks are the room's, so the settings are not refused here.
  const settings = await room.updateSettings(settingsChanges);
  if (!settings.ok) return refuse(posted, settings.errors);
  return redirect(`/race/${race.id}/admin?saved=saved`);
}

const PRECISIONS = ["0 (whole seconds)", "1 (tenths)", "2 (hundredths)", "3 (thousandths)", "4", "5", "6 (microseconds)"].map((label, i) => ({
  value: String(i),
  label,
}));

export default function RaceSetup() {
  const data = useLoaderData<typeof loader>();
  const { race, settings, may } = data;
  const base = `/race/${data.raceId}/admin`;
  const { errors, values } = useReplyFor("save");
  const { errors: stageErrors } = useReplyFor("stages");
  const v = (name: string, stored: string | number | null | undefined) => values?.[name] ?? (stored === null || stored === undefined ? "" : String(stored));
  const checked = (name: string, stored: boolean) => (values ? values[name] === "on" : stored);

  if (data.confirmDelete) {
    return (
      <ConfirmPanel
        title={`Delete the race “${race.name}”?`}
        explanation={`Its ${data.counts.racers} racers, ${data.counts.crossings} recorded crossings, courses, devices and results are deleted with it. It cannot be undone. A race with public results or a visible start list cannot be deleted.`}
        intent="delete"
        action="?index&confirm=delete"
        label="Delete race"
        busyLabel="Deleting…"
        cancelTo={base}
      />
    );
  }

  const startOptionHint = `Default for ${v("start_mode", settings.start_mode)} start: ${defaultStartOption(v("start_mode", settings.start_mode) === "individual" ? "individual" : "mass") === "chipstart" ? "chip start" : "gun"}.`;
  return (
    <section aria-labelledby="setup-heading">
      <h2 id="setup-heading">Setup</h2>
      <SavedNotice message={values ? null : data.saved} />
      <p className="race-meta">{`${data.counts.racers} racers · ${data.counts.crossings} crossings recorded`}</p>
      {may.edit ? (
        <SetupForm intent="save" action="?index" label="Save setup" busyLabel="Saving…" errors={errors}>
          <input type="hidden" name="field_mtimes" value={JSON.stringify(data.mtimes)} />
          <fieldset className="setup-group">
            <legend>Race</legend>
            <TextField name="name" label="Name" required maxLength={200} defaultValue={v("name", race.name)} error={errors.name} />
            <SelectField
              name="sport"
              label="Sport"
              defaultValue={v("sport", race.sport)}
              error={errors.sport}
              choices={[{ value: "", label: "Not set" }, ...data.sportChoices.map((s) => ({ value: s, label: s }))]}
            />
            {data.techniques.length > 0 ? (
              <SelectField
                name="technique"
                label="Technique"
                defaultValue={v("technique", settings.technique)}
                error={errors.technique}
                choices={[{ value: "", label: "Not set" }, ...data.techniques.map((t) => ({ value: t, label: t }))]}
              />
            ) : null}
            <TextField
              name="start"
              type="datetime-local"
              label="Start"
              hint={`Date and time in the race's time zone (${race.timezone}).`}
              required
              defaultValue={v("start", race.start)}
              error={errors.start}
            />
            <TextField
              name="end"
              type="datetime-local"
              label="End"
              hint="Optional. Reads after the end are kept but not used; start groups may not start after it."
              defaultValue={v("end", race.end)}
              error={errors.end}
            />
            <SelectField
              name="timezone"
              label="Time zone"
              defaultValue={v("timezone", race.timezone)}
              error={errors.timezone}
              choices={data.timeZones.map((z) => ({ value: z, label: z.replaceAll("_", " ") }))}
            />
            <TextField name="location" label="Location" maxLength={200} defaultValue={v("location", race.location)} error={errors.location} />
            <RadioField
              name="visibility"
              legend="Who may see the race"
              defaultValue={v("visibility", race.visibility)}
              error={errors.visibility}
              choices={[
                { value: "public", label: "Public", hint: "listed and searchable" },
                { value: "unlisted", label: "Unlisted", hint: "anyone with the link" },
                { value: "private", label: "Private", hint: "race staff only" },
              ]}
            />
          </fieldset>

          <fieldset className="setup-group">
            <legend>Timing</legend>
            <SelectField
              name="timing_mode"
              label="Timing mode"
              defaultValue={v("timing_mode", settings.timing_mode)}
              error={errors.timing_mode}
              choices={TIMING_MODE_CHOICES}
            />
            <TextField
              name="lap_count"
              label="Lap count"
              inputMode="numeric"
              hint="Standard lap races: laps to finish."
              defaultValue={v("lap_count", settings.lap_count)}
              error={errors.lap_count}
            />
            <TextField
              name="max_lap_count"
              label="Maximum lap count"
              inputMode="numeric"
              hint="Time limit races: the most laps counted. Optional."
              defaultValue={v("max_lap_count", settings.max_lap_count)}
              error={errors.max_lap_count}
            />
            <SelectField
              name="precision"
              label="Precision"
              hint="Decimals of a second kept in result times."
              defaultValue={v("precision", settings.precision)}
              error={errors.precision}
              choices={PRECISIONS}
            />
            <SelectField
              name="calc_precision"
              label="Calculation precision"
              hint="Decimals compared when ranking: times equal at this precision share a place."
              defaultValue={v("calc_precision", settings.calc_precision)}
              error={errors.calc_precision}
              choices={PRECISIONS}
            />
          </fieldset>

          <fieldset className="setup-group">
            <legend>Lap and time limit results</legend>
            <SelectField
              name="split_display"
              label="Split columns"
              hint="Lap and point-to-point races."
              defaultValue={v("split_display", settings.split_display)}
              error={errors.split_display}
              choices={choicesOf(SPLIT_DISPLAYS, SPLIT_DISPLAY_LABELS)}
            />
            <SelectField
              name="column_option"
              label="Time limit columns"
              hint="Time limit races show laps up to the course's maximum lap count. Pace per km adds a Pace column in any lap race whose course has a distance."
              defaultValue={v("column_option", settings.column_option)}
              error={errors.column_option}
              choices={choicesOf(COLUMN_OPTIONS, COLUMN_OPTION_LABELS)}
            />
            <SelectField
              name="split_timing"
              label="Split times"
              defaultValue={v("split_timing", settings.split_timing)}
              error={errors.split_timing}
              choices={choicesOf(SPLIT_TIMINGS, SPLIT_TIMING_LABELS)}
            />
            <SelectField
              name="rank_display"
              label="Places shown"
              defaultValue={v("rank_display", settings.rank_display)}
              error={errors.rank_display}
              choices={choicesOf(RANK_DISPLAYS, RANK_DISPLAY_LABELS)}
            />
            <SelectField
              name="display_diffs"
              label="Gaps"
              defaultValue={v("display_diffs", settings.display_diffs)}
              error={errors.display_diffs}
              choices={choicesOf(LAP_DISPLAY_DIFFS, LAP_DISPLAY_DIFF_LABELS)}
            />
          </fieldset>

          <fieldset className="setup-group">
            <legend>Segments &amp; Timing Devices</legend>
            <p className="field-hint">
              Enduro: select timing devices for each point (on the Timing points page), and on each course put a Start point before each timed segment&apos;s
              finish. The finish&apos;s minimum split is the minimum time for that descent segment. Transfer stages, between one finish and the next start, are
              not timed.
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
            <SelectField
              name="enduro_column_option"
              label="Enduro columns"
              defaultValue={v("enduro_column_option", settings.enduro_column_option)}
              error={errors.enduro_column_option}
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
            <TextField
              name="run_count"
              label="Run count"
              inputMode="numeric"
              hint="Runs each racer makes; leave empty for 2. Each run starts at a read of the course's start point."
              defaultValue={v("run_count", settings.run_count)}
              error={errors.run_count}
            />
            <SelectField
              name="multi_run_mode"
              label="Result from the runs"
              defaultValue={v("multi_run_mode", settings.multi_run_mode)}
              error={errors.multi_run_mode}
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
            <TextField
              name="relay_member_count"
              label="Racers per team"
              inputMode="numeric"
              hint={`Legs a team runs; leave empty for ${DEFAULT_RELAY_MEMBER_COUNT}.`}
              defaultValue={v("relay_member_count", settings.relay_member_count)}
              error={errors.relay_member_count}
            />
            <SelectField
              name="team_field"
              label="Team field"
              hint="The racer field naming each racer's team."
              defaultValue={v("team_field", settings.team_field ?? "team")}
              error={errors.team_field}
              choices={data.teamFields}
            />
            <SelectField
              name="team_order"
              label="Leg field"
              hint="The racer field giving each racer's leg (1 runs first)."
              defaultValue={v("team_order", settings.team_order)}
              error={errors.team_order}
              choices={[{ value: "", label: "Bib order within the team" }, ...data.teamFields.filter((f) => f.value !== "team" && f.value !== "club")]}
            />
            <SelectField
              name="team_relay_transition_point"
              label="Handover point"
              hint="Where one leg hands over to the next. With none, a leg ends at its racer's finish."
              defaultValue={v("team_relay_transition_point", settings.team_relay_transition_point)}
              error={errors.team_relay_transition_point}
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
            <SelectField
              name="biathlon_penalty_device"
              label="Penalty-lap recorder"
              hint="With penalty laps: the device at the penalty loop. Its timing point is the loop."
              defaultValue={v("biathlon_penalty_device", settings.biathlon_penalty_device)}
              error={errors.biathlon_penalty_device}
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
            <SelectField
              name="biathlon_result_calc"
              label="Result calculation"
              defaultValue={v("biathlon_result_calc", settings.biathlon_result_calc)}
              error={errors.biathlon_result_calc}
              choices={BIATHLON_RESULT_CALCULATIONS.map((c) => ({ value: c, label: BIATHLON_RESULT_CALCULATION_LABELS[c] }))}
            />
            <SelectField
              name="biathlon_column_option"
              label="Times to display"
              defaultValue={v("biathlon_column_option", settings.biathlon_column_option)}
              error={errors.biathlon_column_option}
              choices={BIATHLON_TIMES_TO_DISPLAY.map((c) => ({ value: c, label: BIATHLON_TIMES_TO_DISPLAY_LABELS[c] }))}
            />
          </fieldset>

          <fieldset className="setup-group">
            <legend>Starts</legend>
            <RadioField
              name="start_mode"
              legend="Start mode"
              defaultValue={v("start_mode", settings.start_mode)}
              error={errors.start_mode}
              choices={[
                { value: "mass", label: "Mass start" },
                { value: "individual", label: "Individual start" },
              ]}
            />
            <SelectField
              name="start_option"
              label="Start option"
              hint={startOptionHint}
              defaultValue={v("start_option", settings.start_option)}
              error={errors.start_option}
              choices={[
                { value: "", label: "Default for the start mode" },
                { value: "gun", label: "Gun time" },
                { value: "chipstart", label: "Chip start" },
              ]}
            />
            <TextField
              name="start_interval"
              label="Start interval (seconds)"
              inputMode="decimal"
              hint="Individual starts: time between starts."
              defaultValue={v("start_interval", settings.start_interval)}
              error={errors.start_interval}
            />
            <CheckboxField
              name="is_start_size_enabled"
              label="Start several racers at each interval"
              defaultChecked={checked("is_start_size_enabled", settings.is_start_size_enabled)}
            />
            <TextField
              name="start_size"
              label="Start size"
              inputMode="numeric"
              hint="Racers leaving together, when the box above is ticked."
              defaultValue={v("start_size", settings.start_size)}
              error={errors.start_size}
            />
            <TextField
              name="start_gap"
              label="Gap between start groups (seconds)"
              inputMode="decimal"
              defaultValue={v("start_gap", settings.start_gap)}
              error={errors.start_gap}
            />
            <TextField
              name="first_bib"
              label="First bib"
              inputMode="numeric"
              hint="Optional: where bib numbering starts."
              defaultValue={v("first_bib", settings.first_bib)}
              error={errors.first_bib}
            />
          </fieldset>

          <fieldset className="setup-group">
            <legend>Results</legend>
            <SelectField
              name="display_precision"
              label="Display precision"
              hint="Decimals shown in results."
              defaultValue={v("display_precision", settings.display_precision)}
              error={errors.display_precision}
              choices={PRECISIONS}
            />
            <TextField
              name="same_time_threshold"
              label="Same-time threshold (seconds)"
              inputMode="decimal"
              hint="A finisher this close behind the one before gets the same time; 0 is off."
              defaultValue={v("same_time_threshold", settings.same_time_threshold)}
              error={errors.same_time_threshold}
            />
            <TextField
              name="same_time_display"
              label="Same-time label"
              maxLength={20}
              defaultValue={v("same_time_display", settings.same_time_display)}
              error={errors.same_time_display}
            />
            <SelectField
              name="dnf_option"
              label="Times after a DNF"
              defaultValue={v("dnf_option", settings.dnf_option)}
              error={errors.dnf_option}
              choices={HIDE_OR_TIME}
            />
            <SelectField
              name="dsq_option"
              label="Times after a DSQ"
              defaultValue={v("dsq_option", settings.dsq_option)}
              error={errors.dsq_option}
              choices={HIDE_OR_TIME}
            />
            <CheckboxField
              name="is_last_name_first"
              label="Show names last name first (LAST, First)"
              defaultChecked={checked("is_last_name_first", settings.is_last_name_first)}
            />
            <SelectField
              name="start_list_visibility"
              label="Start list"
              defaultValue={v("start_list_visibility", settings.start_list_visibility)}
              error={errors.start_list_visibility}
              choices={[
                { value: "hidden", label: "Hidden" },
                { value: "public", label: "Public" },
              ]}
            />
          </fieldset>
        </SetupForm>
      ) : (
        <p>You may see this race&apos;s setup but not change it.</p>
      )}

      {may.edit && settings.prev_race ? (
        <section aria-labelledby="stages-heading">
          <h2 id="stages-heading">Earlier stages</h2>
          <p>
            Copies each racer&apos;s times from the stage before (its result and the stages before it), matched by person, else bib. Run it again after a change
            there.
          </p>
          <SetupForm intent="stages" action="?index" label="Bring in earlier stage times" busyLabel="Bringing in…" errors={stageErrors} />
        </section>
      ) : null}

      {may.delete ? (
        <section aria-labelledby="delete-heading" className="danger-zone">
          <h2 id="delete-heading">Delete race</h2>
          <p>Deleting a race removes its racers, crossings and results for good.</p>
          <Link to={`${base}?confirm=delete`} className="button danger">
            Delete race…
          </Link>
        </section>
      ) : null}
    </section>
  );
}

const HIDE_OR_TIME = [
  { value: "hide", label: "Hide them" },
  { value: "time", label: "Show the time" },
];

export { RaceSetupErrorBoundary as ErrorBoundary } from "../components/form-kit";
