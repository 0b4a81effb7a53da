/**
 * Server code of the Start order page: its forms (race and start group seeding, bib and start-time
 * settings), the status line after an action, and the preview of each group's start list. The rules and
 * their wording come from core/timing (bibs, seeding, start-plan).
 */
import * as z from "zod";
import { exactSeconds } from "../core/time/format";
import { normaliseBibList } from "../core/timing/bibs";
import { racerDisplayName } from "../core/timing/racer-name";
import type { ReportRacer } from "../core/timing/start-list";
import { metaStartGroupFor, normaliseSeedGroupOrder, SEED_FUNCTIONS, seedFunctionFor } from "../core/timing/seeding";
import { STARTTIME_SORTS, startTimeSortFor } from "../core/timing/start-plan";
import type { StoredDocument } from "../schema/race/documents";
import type { RaceSettings } from "../schema/race/settings";
import { atLeastOne, blankOr, checkbox, choice, parseSeconds, rule, seconds, wholeFromZero } from "./forms/field-rules";
import { timeOfDayText, type RaceClock } from "./race-clock.server";
import { groupedBy } from "../core/lists/group";

const SEED_KEYS = SEED_FUNCTIONS.map((f) => f.key) as [string, ...string[]];
const SORT_KEYS = STARTTIME_SORTS.map((s) => s.key) as [string, ...string[]];

export const CHOOSE_SEED_FUNCTION = "Choose a seed function";
export const CHOOSE_START_TIME_SORT = "Choose a start-time sort";
export const CHOOSE_RANKING_SCHEME = "Choose a ranking scheme of this club";

const bibList = rule(normaliseBibList);
/** A select whose first choice, "", means "as the race says" (null). */
const raceDefaultOr = (values: [string, ...string[]], message: string) =>
  z
    .enum(["", ...values] as [string, ...string[]], { error: message })
    .default("")
    .transform((v) => (v === "" ? null : v));

/** The race-wide seeding, bib and start-time settings of the page. */
export const raceStartOrderFormSchema = z.object({
  seed_function: choice(SEED_KEYS, CHOOSE_SEED_FUNCTION),
  prev_stages_count: blankOr(wholeFromZero, 0),
  first_bib: blankOr(wholeFromZero, null),
  reserved_bibs: bibList,
  missing_bibs_csv: bibList,
  is_backwards_bibs: checkbox,
  starttime_sort: choice(SORT_KEYS, CHOOSE_START_TIME_SORT),
  start_interval: rule((t) => parseSeconds(t)),
  start_size: atLeastOne,
  is_start_size_enabled: checkbox,
  start_gap: seconds(0),
  is_mass_start_cutoff: checkbox,
  mass_start_cutoff: rule((t) => parseSeconds(t)),
  /** A scheme of the race's club (the action checks it is); "" is none. */
  ranking_scheme_id: z
    .union([z.literal(""), z.uuid(CHOOSE_RANKING_SCHEME)], { error: CHOOSE_RANKING_SCHEME })
    .default("")
    .transform((v) => (v === "" ? null : v)),
});

/** One start group's seeding and bib settings. */
export const groupStartOrderFormSchema = z.object({
  seed_function: raceDefaultOr(SEED_KEYS, CHOOSE_SEED_FUNCTION),
  custom_seed_order: rule(normaliseSeedGroupOrder),
  starttime_sort: raceDefaultOr(SORT_KEYS, CHOOSE_START_TIME_SORT),
  first_bib: blankOr(wholeFromZero, null),
  reserved_bibs: bibList,
});

/** The race settings the form shows, as text. */
export function raceStartOrderValues(settings: RaceSettings): Record<string, string> {
  return {
    seed_function: settings.seed_function,
    prev_stages_count: String(settings.prev_stages_count),
    first_bib: settings.first_bib === null ? "" : String(settings.first_bib),
    reserved_bibs: settings.reserved_bibs,
    missing_bibs_csv: settings.missing_bibs_csv,
    starttime_sort: settings.starttime_sort,
    start_interval: exactSeconds(settings.start_interval),
    start_size: String(settings.start_size),
    start_gap: exactSeconds(settings.start_gap),
    mass_start_cutoff: exactSeconds(settings.mass_start_cutoff),
    ranking_scheme_id: settings.ranking_scheme_id ?? "",
  };
}

// ---- After an action: the status line, carried in the address ----

export const START_ORDER_ACTIONS = ["seed", "times", "bibs"] as const;
export type StartOrderAction = (typeof START_ORDER_ACTIONS)[number];

/** The address after an action: the page with what was done and how many (`?done=seed&racers=…`). */
export function doneUrl(base: string, action: StartOrderAction, figures: Record<string, number | null>): string {
  const params = new URLSearchParams({ done: action });
  for (const [key, value] of Object.entries(figures)) if (value !== null) params.set(key, String(value));
  return `${base}?${params}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The status line for `?done=…`, or null. Only numbers are read from the address. */
export function doneMessage(params: URLSearchParams, clock: RaceClock): string | null {
  const n = (key: string) => {
    const value = Number(params.get(key));
    return params.has(key) && Number.isFinite(value) ? value : null;
  };
  const racers = n("racers") ?? 0;
  const groups = plural(n("groups") ?? 0, "start group");
  const changed = n("changed");
  const changedText = changed === null ? "" : ` (${changed} changed)`;
  switch (params.get("done")) {
    case "seed":
      return `Seeded ${plural(racers, "racer")} in ${groups}${changedText}.`;
    case "times": {
      const first = n("first");
      const last = n("last");
      const span = first !== null && last !== null ? `, from ${timeOfDayText(first, clock)} to ${timeOfDayText(last, clock)}` : "";
      return `Assigned start times to ${plural(racers, "racer")} in ${groups}${span}${changedText}.`;
    }
    case "bibs": {
      const first = n("first");
      const last = n("last");
      const span = first !== null && last !== null ? ` ${first}–${last}` : "";
      return `Assigned bibs${span} to ${plural(racers, "racer")} in ${groups}${changedText}.`;
    }
    default:
      return null;
  }
}

// ---- The preview: each group's first racers in start order ----

export const PREVIEW_SIZE = 50;

export interface PreviewRow {
  id: string;
  start: string;
  bib: string;
  name: string;
  seed: string;
  /** The ranking points seeding by ranking points used; "" unranked or not seeded so. */
  points: string;
}

export interface GroupPreview {
  id: string;
  label: string;
  seedFunction: string;
  startTimeSort: string;
  custom_seed_order: string;
  first_bib: string;
  reserved_bibs: string;
  firstStart: string;
  lastStart: string;
  count: number;
  rows: PreviewRow[];
  /** Stored choices for the group form ("" is the race's). */
  values: { seed_function: string; starttime_sort: string };
}

const labelOf = <T extends { key: string; label: string }>(list: readonly T[], key: string) => list.find((x) => x.key === key)?.label ?? key;

/** Each group's settings and its first racers by start (assigned, else scheduled), then bib. */
export function groupPreviews(
  groups: readonly StoredDocument<"StartGroup">[],
  racers: readonly ReportRacer[],
  settings: RaceSettings,
  clock: RaceClock,
): GroupPreview[] {
  const byGroup = groupedBy(racers, (r) => r.startGroupId);
  return groups.map((g) => {
    const mine = (byGroup.get(g.id) ?? []).sort(
      (a, b) => (a.scheduledStart ?? Infinity) - (b.scheduledStart ?? Infinity) || (a.bib ?? Infinity) - (b.bib ?? Infinity) || a.id.localeCompare(b.id),
    );
    return {
      id: g.id,
      label: g.data.name || `Start group ${g.ordinal}`,
      seedFunction: labelOf(SEED_FUNCTIONS, seedFunctionFor(g.data, metaStartGroupFor(g.data.metagroup_id, settings.meta_startgroups_list), settings)),
      startTimeSort: labelOf(STARTTIME_SORTS, startTimeSortFor(g.data, settings)),
      custom_seed_order: g.data.custom_seed_order,
      first_bib: g.data.first_bib === null ? "" : String(g.data.first_bib),
      reserved_bibs: g.data.reserved_bibs,
      firstStart: timeOfDayText(g.data.first_start_time, clock),
      lastStart: timeOfDayText(g.data.last_start_time, clock),
      count: mine.length,
      rows: mine.slice(0, PREVIEW_SIZE).map((r) => ({
        id: r.id,
        start: timeOfDayText(r.scheduledStart, clock),
        bib: r.bib === null ? "" : String(r.bib),
        name: racerDisplayName(r, settings.is_last_name_first),
        seed: r.seed === null || r.seed === undefined ? "" : String(r.seed),
        points: r.rankingPoints === null || r.rankingPoints === undefined ? "" : r.rankingPoints.toFixed(2),
      })),
      values: { seed_function: g.data.seed_function ?? "", starttime_sort: g.data.starttime_sort ?? "" },
    };
  });
}
