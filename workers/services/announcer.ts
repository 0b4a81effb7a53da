/**
 * The announcer screen's access and view (decision 0045): race staff who may see system formats (a Race
 * Announcer, a timer, an administrator) get a race's announcer format, whatever the race's visibility;
 * anyone else gets nothing, as system formats are hidden from them everywhere else.
 */
import type { Db } from "../../schema/d1";
import type { AnnouncerView } from "../../schema/wire/announcer-view";
import type { Tenant } from "../../tenants/resolve";
import type { ValidSession } from "../auth/sessions";
import { canSeeSystemFormats, getRaceCatalogue, principalOf, roomOf, type RaceCatalogue } from "./race-access";

export interface AnnouncerPage {
  race: RaceCatalogue;
  /** The race's announcer formats, for switching between them. */
  formats: { id: string; name: string }[];
  /** The chosen format's view; null when the race has no announcer format yet. */
  view: AnnouncerView | null;
}

/** The announcer screen of `formatId` (the race's first announcer format when null), or null: the caller answers 404. */
export async function loadAnnouncerPage(
  env: Env,
  db: Db,
  tenant: Tenant,
  session: ValidSession | null,
  raceId: string,
  formatId: string | null,
): Promise<AnnouncerPage | null> {
  const race = await getRaceCatalogue(db, tenant, raceId);
  if (!race || !canSeeSystemFormats(await principalOf(db, session), race)) return null;
  const room = await roomOf(env, race);
  const formats = (await room.formats()).filter((f) => f.data.is_announcer).map((f) => ({ id: f.id, name: f.data.name }));
  const chosen = formatId === null ? formats[0] : formats.find((f) => f.id === formatId);
  if (formatId !== null && !chosen) return null;
  return { race, formats, view: chosen ? await room.announcerView(chosen.id) : null };
}
