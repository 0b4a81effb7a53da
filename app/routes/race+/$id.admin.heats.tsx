import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import * as z from "zod";
import { exactSeconds, formatRaceTime } from "../../../core/time/format";
import { FINISH_ORDER_HELP } from "../../../core/timing/heat-entry";
import { availableHeatFormats } from "../../../core/timing/heat-formats";
import { validateLapCount } from "../../../core/timing/validation";
import type { HeatGroupWire, HeatWire } from "../../../schema/wire/race-socket";
import { requireRaceAccess } from "../../race-admin.server";
import { afterSave, pageQuery, pageUrl, parseForm, readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import { blankOr, checkbox, seconds, wholeFromZero } from "../../forms/field-rules";
import { documentsOf } from "../../race-documents.server";
import { CheckboxField, ConfirmPanel, SelectField, SetupForm, SetupSection, TextField, useReplyFor } from "../../components/form-kit";
import { HeatBracket } from "../../components/heat-bracket";
import { LiveStatus } from "../../components/live-status";
import { useLiveHeats } from "../../hooks/use-live-heats";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { race, room, may } = await requireRaceAccess(request, context, params.id, "view");
  const [settings, view, groups] = await Promise.all([room.settings(), room.heatsView(), documentsOf(room, "StartGroup")]);
  if (!settings) throw new Response("Not found", { status: 404 });
  const formats = Object.entries(availableHeatFormats(settings.heat_format_dict)).map(([key, f]) => ({ value: key, label: f.name }));
  const query = pageQuery(request);
  const search = new URL(request.url).searchParams;
  const heats = view.groups.flatMap((g) => g.rounds.flatMap((r) => r.heats));
  const findHeat = (id: string | null) => (may.time && id ? (heats.find((h) => h.id === id) ?? null) : null);
  return {
    race: { id: race.id, timezone: race.timezone },
    may,
    saved: query.saved,
    view,
    formats,
    groups: groups.map((g) => ({ id: g.id, label: g.data.name || `Start group ${g.ordinal}`, seeded: view.groups.some((v) => v.startGroupId === g.id) })),
    settings: {
      is_heats: settings.is_heats,
      default_heat_format: settings.default_heat_format ?? "",
      is_dynamic_heats: settings.is_dynamic_heats,
      is_auto_heat_scheduling: settings.is_auto_heat_scheduling,
      heat_start_interval: exactSeconds(settings.heat_start_interval),
      heat_min_rest: exactSeconds(settings.heat_min_rest),
      heat_group_count: settings.heat_group_count === null ? "" : String(settings.heat_group_count),
      sprint_column_option: settings.sprint_column_option,
      lap_count: String(settings.lap_count),
    },
    seeding: may.time ? (groups.find((g) => g.id === search.get("seed")) ?? null) : null,
    correcting: findHeat(search.get("correct")),
    clearing: findHeat(search.get("clear")),
  };
}

const settingsSchema = z.object({
  is_heats: checkbox,
  default_heat_format: z
    .string()
    .default("")
    .transform((v) => v.trim() || null),
  is_dynamic_heats: checkbox,
  is_auto_heat_scheduling: checkbox,
  heat_start_interval: seconds(null),
  heat_min_rest: seconds(null),
  heat_group_count: blankOr(wholeFromZero, null),
  sprint_column_option: z.enum(["quali", "heat"], { error: "Choose which times to show" }),
  // Sprint heats setup: laps (timing.md section 5: a number, at least 1).
  lap_count: blankOr(validateLapCount, 1),
});

export async function action({ request, params, context }: ActionFunctionArgs) {
  const posted = await readPostedForm(request);
  const { race, room, author } = await requireRaceAccess(request, context, params.id, posted.intent === "settings" ? "edit" : "time");
  const base = `/race/${race.id}/admin/heats`;
  if (posted.intent === "settings") {
    const parsed = parseForm(settingsSchema, posted);
    if (!parsed.ok) return parsed.reply;
    const formats = availableHeatFormats((await room.settings())?.heat_format_dict ?? {});
    if (parsed.value.default_heat_format && !formats[parsed.value.default_heat_format]) return refuse(posted, { default_heat_format: "Choose a heat format" });
    return afterSave(posted, await room.updateSettings(parsed.value, author), pageUrl(base, "saved"));
  }
  if (!posted.target) return unknownIntent(posted);
  if (posted.intent === "seed") {
    return afterSave(posted, await room.seedHeats(posted.target, posted.values.format || null), pageUrl(base, "seeded"));
  }
  if (posted.intent === "result") {
    const times: Record<string, string> = {};
    const statuses: Record<string, string> = {};
    for (const [key, value] of Object.entries(posted.values)) {
      if (key.startsWith("time_")) times[key.slice(5)] = value;
      if (key.startsWith("status_")) statuses[key.slice(7)] = value;
    }
    const reply = await room.saveHeatResult(posted.target, { order: posted.values.order ?? "", times, statuses });
    return reply.ok ? redirect(`${pageUrl(base, "recorded")}#heat-${posted.target}`) : afterSave(posted, reply, base);
  }
  if (posted.intent === "clear") {
    return afterSave(posted, await room.clearHeatResult(posted.target), pageUrl(base, "cleared"));
  }
  return unknownIntent(posted);
}

export default function Heats() {
  const data = useLoaderData<typeof loader>();
  const { live, heats } = useLiveHeats(data.race.id, data.view);
  const base = `/race/${data.race.id}/admin/heats`;
  return (
    <SetupSection
      id="heats"
      title="Sprint heats"
      hint="A sprint runs its qualifier as the race's results, then the rounds of its heat format. Timers enter each heat's finish order by bib; the bracket fills in as heats finish."
      saved={data.saved}
      base={base}
      removing={null}
    >
      {data.seeding ? (
        <ConfirmPanel
          title={`Seed the heats of “${data.groups.find((g) => g.id === data.seeding!.id)?.label}”?`}
          explanation="The qualifier's order is frozen now: racers who finished it go into the first round by qualifier rank. Seeding again replaces heats that have no results yet."
          intent="seed"
          target={data.seeding.id}
          label="Seed heats"
          busyLabel="Seeding…"
          cancelTo={base}
          danger={false}
        />
      ) : null}
      {data.clearing ? (
        <ConfirmPanel
          title={`Clear the result of ${data.clearing.name}?`}
          explanation="Its places are removed, and the seats it decided in the next round are open again."
          intent="clear"
          target={data.clearing.id}
          label="Clear result"
          busyLabel="Clearing…"
          cancelTo={base}
        />
      ) : null}
      <LiveStatus state={live} />
      {data.settings.is_heats ? (
        <SeedForms data={data} base={base} />
      ) : (
        <p className="empty-state">This race does not run sprint heats. Turn them on in the settings below.</p>
      )}
      <HeatBracket
        view={heats}
        timeZone={data.race.timezone}
        tools={data.may.time ? (heat, group) => <HeatTools heat={heat} group={group} base={base} correcting={data.correcting?.id === heat.id} /> : undefined}
      />
      {data.may.edit ? <HeatSettings settings={data.settings} formats={data.formats} /> : null}
    </SetupSection>
  );
}

function SeedForms({ data, base }: { data: ReturnType<typeof useLoaderData<typeof loader>>; base: string }) {
  if (!data.may.time) return null;
  if (data.groups.length === 0) return <p className="empty-state">Add a start group for the sprint first.</p>;
  return (
    <div className="seed-heats">
      <ul className="plain-list">
        {data.groups.map((g) => (
          <li key={g.id}>
            <Link to={`${base}?seed=${g.id}`}>{g.seeded ? `Seed “${g.label}” again…` : `Seed heats of “${g.label}” from the qualifier…`}</Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A timer's controls under a heat: the finish order form when it can be raced, correct and clear once done. */
function HeatTools({ heat, base, correcting }: { heat: HeatWire; group: HeatGroupWire; base: string; correcting: boolean }) {
  const { errors, values } = useReplyFor("result", heat.id);
  if (!heat.ready) return null;
  if (heat.complete && !correcting && !errors.order && Object.keys(errors).length === 0) {
    return (
      <p className="row-links">
        <Link to={`${base}?correct=${heat.id}#heat-${heat.id}`}>Correct result</Link>{" "}
        <Link to={`${base}?clear=${heat.id}`} className="danger-link">
          Clear result…
        </Link>
      </p>
    );
  }
  const seated = heat.entries.filter((e) => e.racerId);
  // A correction starts from the result entered, ties joined with "=".
  const entered = heat.complete
    ? heat.entries
        .filter((e) => e.place !== null)
        .reduce<string[]>((tokens, e, i, all) => {
          const bib = String(e.bib ?? "");
          if (i > 0 && all[i - 1]!.place === e.place) tokens[tokens.length - 1] += `=${bib}`;
          else tokens.push(bib);
          return tokens;
        }, [])
        .join(" ")
    : "";
  return (
    <SetupForm intent="result" target={heat.id} label="Save result" busyLabel="Saving…" errors={errors} className="heat-entry">
      <TextField
        id={`order-${heat.id}`}
        name="order"
        label={`Finish order of ${heat.name} (bibs)`}
        hint={FINISH_ORDER_HELP}
        error={errors.order ?? errors.heat}
        defaultValue={values?.order ?? entered}
        inputMode="numeric"
      />
      <details open={Object.keys(errors).some((k) => k.startsWith("time_") || k.startsWith("status_"))}>
        <summary>Heat times and statuses</summary>
        {seated.map((e) => (
          <div key={e.racerId} className="heat-entry-row">
            <TextField
              id={`time-${heat.id}-${e.racerId}`}
              name={`time_${e.racerId}`}
              label={`Time of ${e.bib ?? ""} ${e.name}`}
              error={errors[`time_${e.racerId}`]}
              defaultValue={values?.[`time_${e.racerId}`] ?? (e.time !== null ? formatRaceTime(e.time, 6) : "")}
              placeholder="M:SS.f"
            />
            <SelectField
              id={`status-${heat.id}-${e.racerId}`}
              name={`status_${e.racerId}`}
              label={`Status of ${e.bib ?? ""} ${e.name}`}
              error={errors[`status_${e.racerId}`]}
              defaultValue={values?.[`status_${e.racerId}`] ?? (e.status && e.status !== "dnf" ? e.status : "")}
              choices={[
                { value: "", label: "Finished (or DNF when not in the order)" },
                { value: "dnf", label: "DNF" },
                { value: "dns", label: "DNS" },
                { value: "dsq", label: "DSQ" },
              ]}
            />
          </div>
        ))}
      </details>
    </SetupForm>
  );
}

function HeatSettings({
  settings,
  formats,
}: {
  settings: ReturnType<typeof useLoaderData<typeof loader>>["settings"];
  formats: { value: string; label: string }[];
}) {
  const { errors, values } = useReplyFor("settings");
  const value = (key: keyof typeof settings) => values?.[key] ?? String(settings[key]);
  return (
    <details className="heat-settings" open={Object.keys(errors).length > 0 || !settings.is_heats}>
      <summary>Sprint heat settings</summary>
      <SetupForm intent="settings" label="Save settings" busyLabel="Saving…" errors={errors}>
        <CheckboxField name="is_heats" label="This race runs sprint heats (a qualifier, then heats)" defaultChecked={settings.is_heats} />
        <SelectField
          name="default_heat_format"
          label="Heat format"
          hint="Blank: the largest standard format the field fills."
          error={errors.default_heat_format}
          defaultValue={value("default_heat_format")}
          choices={[{ value: "", label: "Choose by field size" }, ...formats]}
        />
        <TextField
          name="lap_count"
          label="Laps"
          hint="Sprint heats setup: laps per heat."
          error={errors.lap_count}
          defaultValue={value("lap_count")}
          inputMode="numeric"
        />
        <CheckboxField
          name="is_dynamic_heats"
          label="Dynamic heats: fill a next-round seat as soon as the heat deciding it is done"
          defaultChecked={settings.is_dynamic_heats}
        />
        <SelectField
          name="sprint_column_option"
          label="Times to display"
          error={errors.sprint_column_option}
          defaultValue={value("sprint_column_option")}
          choices={[
            { value: "quali", label: "Qualifier times" },
            { value: "heat", label: "Heat times" },
          ]}
        />
        <CheckboxField
          name="is_auto_heat_scheduling"
          label="Schedule heats automatically when they are seeded"
          defaultChecked={settings.is_auto_heat_scheduling}
        />
        <TextField
          name="heat_start_interval"
          label="Heat start interval (seconds)"
          hint="Blank: 240 seconds."
          error={errors.heat_start_interval}
          defaultValue={value("heat_start_interval")}
          inputMode="decimal"
        />
        <TextField
          name="heat_min_rest"
          label="Minimum rest between a racer's heats (seconds)"
          error={errors.heat_min_rest}
          defaultValue={value("heat_min_rest")}
          inputMode="decimal"
        />
        <TextField
          name="heat_group_count"
          label="Start groups run together"
          hint="Blank: every start group's rounds take turns."
          error={errors.heat_group_count}
          defaultValue={value("heat_group_count")}
          inputMode="numeric"
        />
      </SetupForm>
    </details>
  );
}
