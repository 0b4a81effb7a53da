/**
 * What a race's public page shows: the result formats the caller may see (public ones listed, unlisted
 * ones by link, system ones for race staff) and the chosen format's current results from the RaceRoom.
 */
import type { Db } from "../../schema/d1";
import type { FormatSnapshot } from "../../schema/wire/race-socket";
import type { ResultsWindow, WindowQuery } from "../../schema/wire/results-window";
import type { Tenant } from "../../tenants/resolve";
import type { ValidSession } from "../auth/sessions";
import { canSeeSystemFormats, isSystemFormat, principalOf, roomOf, type RaceCatalogue } from "./race-access";

export interface FormatLink {
  id: string;
  name: string;
  kind: "public" | "unlisted" | "announcer" | "live" | "system";
}

export interface RaceResultsView {
  formats: FormatLink[];
  current: FormatSnapshot | null;
  /** The chosen format's print_size, for the print stylesheet and the PDF. */
  printSize: string | null;
  /** The chosen format's TV settings (scroll_speed, scroll_factor, top_x), as stored. */
  display: { scroll_speed: number | null; scroll_factor: number | null; top_x: number | null } | null;
}

export function kindOf(f: { is_public: boolean; is_unlisted: boolean; is_announcer: boolean; is_live: boolean }): FormatLink["kind"] {
  if (f.is_public) return "public";
  if (f.is_unlisted) return "unlisted";
  if (f.is_announcer) return "announcer";
  return f.is_live ? "live" : "system";
}

/** The race's result formats this caller may see: system ones for race staff only. */
export async function visibleFormats(env: Env, db: Db, session: ValidSession | null, race: RaceCatalogue) {
  const room = await roomOf(env, race);
  const staff = canSeeSystemFormats(await principalOf(db, session), race);
  const visible = (await room.formats()).filter((f) => staff || !isSystemFormat(f.data));
  return { room, staff, visible };
}

/** The format a page asked for among those visible (the first public one when none), and the list it links to. */
async function chooseFormat(env: Env, db: Db, session: ValidSession | null, race: RaceCatalogue, formatId: string | null) {
  const { room, staff, visible } = await visibleFormats(env, db, session, race);
  const chosen = formatId ? visible.find((f) => f.id === formatId) : (visible.find((f) => f.data.is_public) ?? null);
  // Unlisted formats are reached by their link only; the list shows them once someone is on one.
  const listed = visible.filter((f) => f.data.is_unlisted === false || f.id === chosen?.id || staff);
  return {
    room,
    chosen: chosen ?? null,
    formats: listed.map((f): FormatLink => ({ id: f.id, name: f.data.name, kind: kindOf(f.data) })),
    printSize: chosen?.data.print_size ?? null,
    display: chosen ? { scroll_speed: chosen.data.scroll_speed, scroll_factor: chosen.data.scroll_factor, top_x: chosen.data.top_x } : null,
  };
}

export async function loadRaceResults(
  env: Env,
  db: Db,
  _tenant: Tenant,
  session: ValidSession | null,
  race: RaceCatalogue,
  formatId: string | null,
): Promise<RaceResultsView> {
  const { room, chosen, ...view } = await chooseFormat(env, db, session, race, formatId);
  return { ...view, current: chosen ? await room.snapshot(chosen.id) : null };
}

export interface ResultsWindowView extends Omit<RaceResultsView, "current"> {
  current: ResultsWindow | null;
}

/** A page of the chosen format's results (one group, one page of rows), for the results page of a race of any size. */
export async function loadResultsWindow(
  env: Env,
  db: Db,
  session: ValidSession | null,
  race: RaceCatalogue,
  formatId: string | null,
  query: WindowQuery,
): Promise<ResultsWindowView> {
  const { room, chosen, ...view } = await chooseFormat(env, db, session, race, formatId);
  return { ...view, current: chosen ? await room.resultsWindow(chosen.id, query) : null };
}
