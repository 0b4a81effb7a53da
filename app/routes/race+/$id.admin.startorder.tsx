import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { SEED_FUNCTIONS, SEED_GROUP_ORDER_PLACEHOLDER } from "../../../core/timing/seeding";
import { STARTTIME_SORTS } from "../../../core/timing/start-plan";
import { openDb } from "../../../schema/d1";
import { assignBibsWithChips } from "../../../workers/services/racer-chips";
import { schemeChoices, schemeProblem, seedWithRankings } from "../../../workers/services/ranking-seeding";
import { requireRaceAccess } from "../../race-admin.server";
import { afterSave, pageQuery, parseForm, readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import { documentsOf, requireDocument } from "../../race-documents.server";
import { raceClockOf } from "../../race-clock.server";
import {
  doneMessage,
  doneUrl,
  groupPreviews,
  groupStartOrderFormSchema,
  raceStartOrderFormSchema,
  raceStartOrderValues,
  type GroupPreview,
} from "../../start-order.server";
import { CheckboxField, ConfirmPanel, NoneYet, SavedNotice, SelectField, SetupForm, TextField, useReplyFor } from "../../components/form-kit";
import { ErrorPage, RACE_SETUP_ERRORS } from "../../components/error-page";
import { reportInputOf } from "../../racer-reports.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Start order · ${data.raceName}` : "Start order" }];

const CONFIRMS = {
  seed: { intent: "seed", title: "Seed racers?", label: "Seed racers", busy: "Seeding…" },
  times: { intent: "times", title: "Assign start times?", label: "Assign start times", busy: "Assigning…" },
  bibs: { intent: "bibs", title: "Assign bibs?", label: "Assign bibs", busy: "Assigning…" },
} as const;
type ConfirmKey = keyof typeof CONFIRMS;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const access = await requireRaceAccess(request, context, params.id, "view");
  const { race, room, may } = access;
  // The field as the reports read it (a few fields a racer), and the settings, kept per list revision as the
  // reports keep them (a race with no settings is a 404 there).
  const input = await reportInputOf(access);
  const settings = input.setup.settings;
  const [groups, racers] = await Promise.all([documentsOf(room, "StartGroup"), input.racers()]);
  const clock = raceClockOf(race);
  const query = pageQuery(request);
  const search = new URL(request.url).searchParams;
  const previews = groupPreviews(groups, racers, settings, clock);
  const confirmKey = may.edit && query.confirm && query.confirm in CONFIRMS ? (query.confirm as ConfirmKey) : null;
  const confirmGroup = confirmKey && search.get("group") ? (previews.find((g) => g.id === search.get("group")) ?? null) : null;
  return {
    raceId: race.id,
    raceName: race.name,
    may,
    saved: query.saved,
    done: doneMessage(search, clock),
    settings: {
      ...raceStartOrderValues(settings),
      is_backwards_bibs: settings.is_backwards_bibs,
      is_start_size_enabled: settings.is_start_size_enabled,
      is_mass_start_cutoff: settings.is_mass_start_cutoff,
    },
    groups: previews,
    schemes: may.edit ? await schemeChoices(openDb(context.env.DB), race.clubId) : [],
    ungrouped: racers.filter((r) => !r.startGroupId).length,
    confirm: confirmKey
      ? { key: confirmKey, group: confirmGroup ? { id: confirmGroup.id, label: confirmGroup.label, count: confirmGroup.count } : null }
      : null,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { race, room, author } = await requireRaceAccess(request, context, params.id, "edit");
  const posted = await readPostedForm(request);
  const base = `/race/${race.id}/admin/startorder`;
  switch (posted.intent) {
    case "race-settings": {
      const parsed = parseForm(raceStartOrderFormSchema, posted);
      if (!parsed.ok) return parsed.reply;
      const schemeError = await schemeProblem(openDb(context.env.DB), race.clubId, parsed.value.ranking_scheme_id);
      if (schemeError) return refuse(posted, { ranking_scheme_id: schemeError });
      return afterSave(posted, await room.updateSettings(parsed.value, author), `${base}?saved=saved`);
    }
    case "group-settings": {
      const group = requireDocument(await documentsOf(room, "StartGroup"), posted.target);
      const parsed = parseForm(groupStartOrderFormSchema, posted);
      if (!parsed.ok) return parsed.reply;
      return afterSave(posted, await room.saveDocument("StartGroup", group.id, parsed.value, author), `${base}?saved=saved`);
    }
    case "seed": {
      const result = await seedWithRankings(context.env, openDb(context.env.DB), race, room, posted.target);
      if (!result.ok) return refuse(posted, { form: Object.values(result.errors)[0] ?? "Seeding failed" });
      return redirect(doneUrl(base, "seed", { racers: result.value.racers, groups: result.value.groups, changed: result.value.changed }));
    }
    case "times": {
      const result = await room.assignStartTimes();
      if (!result.ok) return refuse(posted, { form: Object.values(result.errors)[0] ?? "Start times could not be assigned" });
      const v = result.value;
      return redirect(doneUrl(base, "times", { racers: v.racers, groups: v.groups, changed: v.changed, first: v.firstStart, last: v.lastStart }));
    }
    case "bibs": {
      // The depot sees the new bibs on the chips issued to these racers (decision 0077).
      const result = await assignBibsWithChips(context.env, openDb(context.env.DB), race.id, room, posted.target);
      if (!result.ok) return refuse(posted, { form: Object.values(result.errors)[0] ?? "Bibs could not be assigned" });
      const v = result.value;
      return redirect(doneUrl(base, "bibs", { racers: v.racers, groups: v.groups, changed: v.changed, first: v.firstBib, last: v.lastBib }));
    }
    default:
      return unknownIntent(posted);
  }
}

const SEED_CHOICES = SEED_FUNCTIONS.map((f) => ({ value: f.key, label: f.label }));
const SORT_CHOICES = STARTTIME_SORTS.map((s) => ({ value: s.key, label: s.label }));

/** Seeding, start times and bibs for the race's start groups (timing.md section 4). */
export default function StartOrder() {
  const data = useLoaderData<typeof loader>();
  const base = `/race/${data.raceId}/admin/startorder`;
  if (data.confirm) return <Confirm base={base} confirm={data.confirm} />;
  const startList = `/race/${data.raceId}/admin/reports/start-list`;
  return (
    <section aria-labelledby="startorder-heading">
      <h2 id="startorder-heading">Start order</h2>
      <p className="hint">
        Seed racers, then assign start times and bibs. Only racers in a start group take part
        {data.ungrouped > 0 ? `; ${data.ungrouped} ${data.ungrouped === 1 ? "racer has" : "racers have"} none and keep their start and bib` : ""}.
      </p>
      <SavedNotice message={data.saved} />
      {data.done ? (
        <p role="status" className="form-notice" data-testid="startorder-status">
          {data.done}
        </p>
      ) : null}

      {data.may.edit ? (
        <>
          <section aria-labelledby="actions-heading">
            <h3 id="actions-heading">Actions</h3>
            <p className="hint">Each asks first: they overwrite racers&apos; seeds, start times or bibs.</p>
            <p className="row-links">
              <Link to={`${base}?confirm=seed`} className="button">
                Seed…
              </Link>{" "}
              <Link to={`${base}?confirm=times`} className="button">
                Assign start times…
              </Link>{" "}
              <Link to={`${base}?confirm=bibs`} className="button">
                Assign bibs…
              </Link>
            </p>
          </section>
          <RaceSettingsForm settings={data.settings} schemes={data.schemes} />
        </>
      ) : (
        <p>You may see the start order but not change it.</p>
      )}

      <section aria-labelledby="groups-heading">
        <h3 id="groups-heading">Start groups</h3>
        {data.groups.length === 0 ? (
          <NoneYet what="start groups" to={`/race/${data.raceId}/admin/startgroups`} label="Add a start group" then="and put racers in it first." />
        ) : null}
        {data.groups.map((group) => (
          <GroupSection key={group.id} group={group} base={base} mayEdit={data.may.edit} startList={startList} />
        ))}
      </section>
    </section>
  );
}

function Confirm({ base, confirm }: { base: string; confirm: { key: ConfirmKey; group: { id: string; label: string; count: number } | null } }) {
  const c = CONFIRMS[confirm.key];
  const who = confirm.group ? `the ${confirm.group.count} racers of “${confirm.group.label}”` : "the racers of every start group";
  const explanation = {
    seed: `Seeding recalculates the seed of ${who} with the group's seed function and fills in random values. Seeds set by hand are kept.`,
    times:
      "Every racer in a start group gets a new assigned start time, each group a new first and last start, and the groups are renumbered by their first start.",
    bibs: `Bibs are given to ${who} in start order, skipping missing and reserved bibs. Reads already recorded by bib go to the racer who now wears that bib.`,
  }[confirm.key];
  const query = new URLSearchParams({ confirm: confirm.key });
  if (confirm.group) query.set("group", confirm.group.id);
  return (
    <ConfirmPanel
      title={c.title}
      explanation={explanation}
      intent={c.intent}
      target={confirm.group?.id ?? null}
      action={`${base}?${query}`}
      label={c.label}
      busyLabel={c.busy}
      cancelTo={base}
      danger={false}
    />
  );
}

function RaceSettingsForm({ settings, schemes }: { settings: Record<string, string | boolean>; schemes: { value: string; label: string }[] }) {
  const { errors, values } = useReplyFor("race-settings");
  const v = (name: string) => values?.[name] ?? String(settings[name] ?? "");
  const checked = (name: string) => (values ? values[name] === "on" : settings[name] === true);
  return (
    <section aria-labelledby="race-settings-heading">
      <h3 id="race-settings-heading">Race settings</h3>
      <SetupForm intent="race-settings" label="Save race settings" busyLabel="Saving…" errors={errors}>
        <fieldset className="setup-group">
          <legend>Seeding</legend>
          <SelectField
            name="seed_function"
            label="Seed function"
            hint="Start groups use this unless they choose their own."
            defaultValue={v("seed_function")}
            error={errors.seed_function}
            choices={SEED_CHOICES}
          />
          <TextField
            name="prev_stages_count"
            label="Previous stages"
            inputMode="numeric"
            hint="Pursuit seeding needs 1 or more."
            defaultValue={v("prev_stages_count")}
            error={errors.prev_stages_count}
          />
          <SelectField
            name="ranking_scheme_id"
            label="Ranking scheme"
            hint="Seeding by ranking points reads this scheme's current list."
            defaultValue={v("ranking_scheme_id")}
            error={errors.ranking_scheme_id}
            choices={[{ value: "", label: schemes.length === 0 ? "None (the club has no ranking schemes)" : "None" }, ...schemes]}
          />
        </fieldset>
        <fieldset className="setup-group">
          <legend>Bibs</legend>
          <TextField
            name="first_bib"
            label="First bib"
            inputMode="numeric"
            hint="Where numbering starts; empty is 1."
            defaultValue={v("first_bib")}
            error={errors.first_bib}
          />
          <TextField
            name="reserved_bibs"
            label="Reserved bibs"
            placeholder="13, 40-45"
            hint="Numbers and ranges separated by commas; never given."
            defaultValue={v("reserved_bibs")}
            error={errors.reserved_bibs}
          />
          <TextField
            name="missing_bibs_csv"
            label="Missing bibs"
            placeholder="13, 40-45"
            hint="Bibs you do not have; skipped when assigning."
            defaultValue={v("missing_bibs_csv")}
            error={errors.missing_bibs_csv}
          />
          <CheckboxField
            name="is_backwards_bibs"
            label="Backwards bibs: the last racer to start wears the first bib"
            defaultChecked={checked("is_backwards_bibs")}
          />
        </fieldset>
        <fieldset className="setup-group">
          <legend>Start times</legend>
          <SelectField
            name="starttime_sort"
            label="Start-time sort"
            hint="The order racers start in within a group."
            defaultValue={v("starttime_sort")}
            error={errors.starttime_sort}
            choices={SORT_CHOICES}
          />
          <TextField
            name="start_interval"
            label="Start interval (seconds)"
            inputMode="decimal"
            hint="Individual starts: time between starts."
            defaultValue={v("start_interval")}
            error={errors.start_interval}
          />
          <CheckboxField name="is_start_size_enabled" label="Start several racers at each interval" defaultChecked={checked("is_start_size_enabled")} />
          <TextField
            name="start_size"
            label="Start size"
            inputMode="numeric"
            hint="Racers leaving together, when the box above is ticked."
            defaultValue={v("start_size")}
            error={errors.start_size}
          />
          <TextField name="start_gap" label="Gap between start groups (seconds)" inputMode="decimal" defaultValue={v("start_gap")} error={errors.start_gap} />
          <CheckboxField
            name="is_mass_start_cutoff"
            label="Pursuit: racers far behind start together at the cutoff"
            defaultChecked={checked("is_mass_start_cutoff")}
          />
          <TextField
            name="mass_start_cutoff"
            label="Mass start cutoff (seconds behind the leader)"
            inputMode="decimal"
            defaultValue={v("mass_start_cutoff")}
            error={errors.mass_start_cutoff}
          />
        </fieldset>
      </SetupForm>
    </section>
  );
}

function GroupSection({ group, base, mayEdit, startList }: { group: GroupPreview; base: string; mayEdit: boolean; startList: string }) {
  const headingId = `group-${group.id}-heading`;
  return (
    <section aria-labelledby={headingId} className="setup-group">
      <h4 id={headingId}>{group.label}</h4>
      <p className="race-meta">
        {`${group.count} ${group.count === 1 ? "racer" : "racers"} · ${group.seedFunction} · start-time sort: ${group.startTimeSort}`}
        {group.firstStart ? ` · starts ${group.firstStart}–${group.lastStart}` : ""}
      </p>
      {mayEdit ? (
        <>
          <p className="row-links">
            <Link to={`${base}?confirm=seed&group=${group.id}`} aria-label={`Seed ${group.label}`}>
              Seed this group…
            </Link>{" "}
            <Link to={`${base}?confirm=bibs&group=${group.id}`} aria-label={`Assign bibs to ${group.label}`}>
              Assign bibs to this group…
            </Link>
          </p>
          <GroupForm group={group} />
        </>
      ) : null}
      <Preview group={group} startList={startList} />
    </section>
  );
}

function GroupForm({ group }: { group: GroupPreview }) {
  const { errors, values } = useReplyFor("group-settings", group.id);
  const id = (name: string) => `${name}-${group.id}`;
  const v = (name: "seed_function" | "starttime_sort" | "custom_seed_order" | "first_bib" | "reserved_bibs") =>
    values?.[name] ?? (name === "seed_function" || name === "starttime_sort" ? group.values[name] : group[name]);
  return (
    <SetupForm intent="group-settings" target={group.id} label="Save group settings" busyLabel="Saving…" errors={errors}>
      <SelectField
        id={id("seed_function")}
        name="seed_function"
        label="Seed function"
        defaultValue={v("seed_function")}
        error={errors.seed_function}
        choices={[{ value: "", label: "The race's" }, ...SEED_CHOICES]}
      />
      <TextField
        id={id("custom_seed_order")}
        name="custom_seed_order"
        label="Seed Group Order"
        placeholder={SEED_GROUP_ORDER_PLACEHOLDER}
        hint="Seed groups in the order they start; empty starts the highest group first, so the best start last."
        defaultValue={v("custom_seed_order")}
        error={errors.custom_seed_order}
      />
      <SelectField
        id={id("starttime_sort")}
        name="starttime_sort"
        label="Start-time sort"
        defaultValue={v("starttime_sort")}
        error={errors.starttime_sort}
        choices={[{ value: "", label: "The race's" }, ...SORT_CHOICES]}
      />
      <TextField
        id={id("first_bib")}
        name="first_bib"
        label="First bib"
        inputMode="numeric"
        hint="Empty: on from the previous group, else the race's."
        defaultValue={v("first_bib")}
        error={errors.first_bib}
      />
      <TextField
        id={id("reserved_bibs")}
        name="reserved_bibs"
        label="Reserved bibs"
        placeholder="13, 40-45"
        defaultValue={v("reserved_bibs")}
        error={errors.reserved_bibs}
      />
    </SetupForm>
  );
}

function Preview({ group, startList }: { group: GroupPreview; startList: string }) {
  if (group.count === 0) return <p className="empty-state">No racers in this group.</p>;
  const withPoints = group.rows.some((r) => r.points !== "");
  return (
    <>
      <div className="table-scroll">
        <table className="data-table">
          <caption className="visually-hidden">{`First racers of ${group.label} in start order`}</caption>
          <thead>
            <tr>
              <th scope="col">Start</th>
              <th scope="col">Bib</th>
              <th scope="col">Name</th>
              <th scope="col">Seed</th>
              {withPoints ? <th scope="col">Ranking points</th> : null}
            </tr>
          </thead>
          <tbody>
            {group.rows.map((r) => (
              <tr key={r.id}>
                <td>{r.start}</td>
                <td>{r.bib}</td>
                <th scope="row">{r.name}</th>
                <td>{r.seed}</td>
                {withPoints ? <td>{r.points}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        {group.rows.length < group.count ? `The first ${group.rows.length} of ${group.count}. ` : ""}
        <Link to={startList}>Open the start list</Link>
      </p>
    </>
  );
}

export const ErrorBoundary = () => <ErrorPage {...RACE_SETUP_ERRORS} />;
