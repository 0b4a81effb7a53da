import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import * as z from "zod";
import { deviceDisplayName } from "../../../core/timing/devices";
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
} from "../../../core/timing/result-columns";
import { defaultStartOption } from "../../../core/timing/validation";
import type { TimingDeviceDoc, TimingPointDoc } from "../../../schema/race/documents";
import { sportsSorted, sportTechniques } from "../../../core/timing/sports";
import { openDb } from "../../../schema/d1";
import { Race } from "../../../schema/entities/classes";
import { protectedObjectOf } from "../../../schema/entities/registry";
import { publishFieldChanges } from "../../../workers/data-api/hub-client";
import { deleteRace, timeZoneNames } from "../../../workers/services/race-setup";
import { localInputOf } from "../../../core/time/wall-clock";
import { roomStub } from "../../../workers/services/race-access";
import { stageChoices, stagesBefore } from "../../../workers/services/race-stages";
import { requireRaceAccess } from "../../race-admin.server";
import { pageQuery, readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import { parseTimedForm } from "../../race-clock.server";
import { raceChangesOf, racerFieldsOf, settingsChangesOf, setupFormSchema } from "../../race-setup.server";
import { exactSeconds } from "../../../core/time/format";
import { TIMING_MODE_CHOICES } from "../../components/race-setup-choices";
import { RaceModeFieldsets } from "../../components/race-mode-fieldsets";
import { CheckboxField, ConfirmPanel, RadioField, SavedNotice, SelectField, SetupForm, TextField, useReplyFor } from "../../components/form-kit";
import { SettingSelect, SettingText } from "../../components/setting-fields";
import { ErrorPage, RACE_SETUP_ERRORS } from "../../components/error-page";

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
  const { race, room, may, author } = await requireRaceAccess(request, context, params.id, "edit");
  const posted = await readPostedForm(request);
  if (posted.intent === "delete") {
    if (!may.delete) throw new Response("Forbidden", { status: 403 });
    const result = await deleteRace({ ...context, db: openDb(context.env.DB), userId: context.session?.user.id ?? null }, race, room);
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
  const settings = await room.updateSettings(settingsChanges, author);
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
  const form = { v, errors };

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
            <SettingSelect
              form={form}
              name="sport"
              stored={race.sport}
              label="Sport"
              choices={[{ value: "", label: "Not set" }, ...data.sportChoices.map((s) => ({ value: s, label: s }))]}
            />
            {data.techniques.length > 0 ? (
              <SettingSelect
                form={form}
                name="technique"
                stored={settings.technique}
                label="Technique"
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
            <SettingText
              form={form}
              name="end"
              stored={race.end}
              type="datetime-local"
              label="End"
              hint="Optional. Reads after the end are kept but not used; start groups may not start after it."
            />
            <SettingSelect
              form={form}
              name="timezone"
              stored={race.timezone}
              label="Time zone"
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
            <SettingSelect form={form} name="timing_mode" stored={settings.timing_mode} label="Timing mode" choices={TIMING_MODE_CHOICES} />
            <SettingText
              form={form}
              name="lap_count"
              stored={settings.lap_count}
              label="Lap count"
              inputMode="numeric"
              hint="Standard lap races: laps to finish."
            />
            <SettingText
              form={form}
              name="max_lap_count"
              stored={settings.max_lap_count}
              label="Maximum lap count"
              inputMode="numeric"
              hint="Time limit races: the most laps counted. Optional."
            />
            <SettingSelect
              form={form}
              name="precision"
              stored={settings.precision}
              label="Precision"
              hint="Decimals of a second kept in result times."
              choices={PRECISIONS}
            />
            <SettingSelect
              form={form}
              name="calc_precision"
              stored={settings.calc_precision}
              label="Calculation precision"
              hint="Decimals compared when ranking: times equal at this precision share a place."
              choices={PRECISIONS}
            />
          </fieldset>

          <fieldset className="setup-group">
            <legend>Lap and time limit results</legend>
            <SettingSelect
              form={form}
              name="split_display"
              stored={settings.split_display}
              label="Split columns"
              hint="Lap and point-to-point races."
              choices={choicesOf(SPLIT_DISPLAYS, SPLIT_DISPLAY_LABELS)}
            />
            <SettingSelect
              form={form}
              name="column_option"
              stored={settings.column_option}
              label="Time limit columns"
              hint="Time limit races show laps up to the course's maximum lap count. Pace per km adds a Pace column in any lap race whose course has a distance."
              choices={choicesOf(COLUMN_OPTIONS, COLUMN_OPTION_LABELS)}
            />
            <SettingSelect
              form={form}
              name="split_timing"
              stored={settings.split_timing}
              label="Split times"
              choices={choicesOf(SPLIT_TIMINGS, SPLIT_TIMING_LABELS)}
            />
            <SettingSelect
              form={form}
              name="rank_display"
              stored={settings.rank_display}
              label="Places shown"
              choices={choicesOf(RANK_DISPLAYS, RANK_DISPLAY_LABELS)}
            />
            <SettingSelect
              form={form}
              name="display_diffs"
              stored={settings.display_diffs}
              label="Gaps"
              choices={choicesOf(LAP_DISPLAY_DIFFS, LAP_DISPLAY_DIFF_LABELS)}
            />
          </fieldset>

          <RaceModeFieldsets v={v} checked={checked} errors={errors} settings={settings} data={data} />

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
            <SettingText
              form={form}
              name="start_interval"
              stored={settings.start_interval}
              label="Start interval (seconds)"
              inputMode="decimal"
              hint="Individual starts: time between starts."
            />
            <CheckboxField
              name="is_start_size_enabled"
              label="Start several racers at each interval"
              defaultChecked={checked("is_start_size_enabled", settings.is_start_size_enabled)}
            />
            <SettingText
              form={form}
              name="start_size"
              stored={settings.start_size}
              label="Start size"
              inputMode="numeric"
              hint="Racers leaving together, when the box above is ticked."
            />
            <SettingText form={form} name="start_gap" stored={settings.start_gap} label="Gap between start groups (seconds)" inputMode="decimal" />
            <SettingText
              form={form}
              name="first_bib"
              stored={settings.first_bib}
              label="First bib"
              inputMode="numeric"
              hint="Optional: where bib numbering starts."
            />
          </fieldset>

          <fieldset className="setup-group">
            <legend>Results</legend>
            <SettingSelect
              form={form}
              name="display_precision"
              stored={settings.display_precision}
              label="Display precision"
              hint="Decimals shown in results."
              choices={PRECISIONS}
            />
            <SettingText
              form={form}
              name="same_time_threshold"
              stored={settings.same_time_threshold}
              label="Same-time threshold (seconds)"
              inputMode="decimal"
              hint="A finisher this close behind the one before gets the same time; 0 is off."
            />
            <SettingText form={form} name="same_time_display" stored={settings.same_time_display} label="Same-time label" maxLength={20} />
            <SettingSelect form={form} name="dnf_option" stored={settings.dnf_option} label="Times after a DNF" choices={HIDE_OR_TIME} />
            <SettingSelect form={form} name="dsq_option" stored={settings.dsq_option} label="Times after a DSQ" choices={HIDE_OR_TIME} />
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

export const ErrorBoundary = () => <ErrorPage {...RACE_SETUP_ERRORS} />;
