/**
 * What a club site's home page shows (decision 0056): its blocks when the club set some, with the upcoming
 * events and races their list blocks need; none set, the tagline and the upcoming races as before.
 */
import type { HomeBlock } from "../schema/wire/page-blocks";
import type { Db } from "../schema/d1";
import { listUpcomingSiteRaces } from "../workers/services/races";
import { siteHomeBlocks } from "../workers/services/site-content";
import { upcomingSiteEvents } from "./events.server";

/** How many events and races a home page's list block shows; the full lists are a click away. */
export const HOME_LIST_LIMIT = 6;

/** The lists the blocks show, loaded only when a block asks for them. */
export async function homeListsFor(db: Db, siteId: string, now: number, blocks: readonly HomeBlock[]) {
  const wants = (type: HomeBlock["type"]) => blocks.some((b) => b.type === type);
  const [events, races] = await Promise.all([
    wants("events") ? upcomingSiteEvents(db, siteId, now, HOME_LIST_LIMIT) : [],
    wants("races") ? listUpcomingSiteRaces(db, siteId, now, HOME_LIST_LIMIT) : [],
  ]);
  return { events, races };
}

/** The home page's blocks and their lists, or null for the default home page. */
export async function siteHome(db: Db, siteId: string, now: number) {
  const blocks = await siteHomeBlocks(db, siteId);
  if (blocks.length === 0) return null;
  return { blocks, ...(await homeListsFor(db, siteId, now, blocks)) };
}
