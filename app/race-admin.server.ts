import type { AppLoadContext } from "@remix-run/cloudflare";
import * as z from "zod";
import type { Action, Principal } from "../core/access/policy";
import { openDb } from "../schema/d1";
import { canOnRace, getRaceCatalogue, principalOf, roomOf, type RaceCatalogue } from "../workers/services/race-access";
import type { SetupAuthor } from "../durable/race/setup-history";
import { requireSession } from "./auth.server";

export interface RaceAccess {
  race: RaceCatalogue;
  room: Awaited<ReturnType<typeof roomOf>>;
  principal: Principal;
  /** Named in the race's setup history for every change made through this page (durable/race/setup-history.ts). */
  author: SetupAuthor;
  /** What the caller may do here, for showing only the tools they can use. */
  may: Record<"view" | "edit" | "time" | "delete" | "announce" | "replace_chip", boolean>;
}

/**
 * The guard of every race administration page and action: a signed-in user whose roles allow `action` on
 * this race (race-scoped roles, All Races, Organization Admin, or a System Administrator with the races flag).
 * Anyone else gets a 404 for a race they cannot see and a 403 for a tool they may not use.
 */
export async function requireRaceAccess(request: Request, context: AppLoadContext, rawRaceId: string | undefined, action: Action): Promise<RaceAccess> {
  const session = requireSession(request, context);
  const db = openDb(context.env.DB);
  const raceId = z.uuid().safeParse(rawRaceId);
  const race = raceId.success ? await getRaceCatalogue(db, context.tenant, raceId.data) : null;
  const principal = (await principalOf(db, session))!;
  if (!race || !canOnRace(principal, "view", race)) throw new Response("Not found", { status: 404 });
  if (!canOnRace(principal, action, race)) throw new Response("Forbidden", { status: 403 });
  const may = {
    view: true,
    edit: canOnRace(principal, "edit", race),
    time: canOnRace(principal, "time", race),
    delete: canOnRace(principal, "delete", race),
    announce: canOnRace(principal, "announce", race),
    replace_chip: canOnRace(principal, "replace_chip", race),
  };
  return { race, room: await roomOf(context.env, race), principal, may, author: { userId: session.user.id } };
}
