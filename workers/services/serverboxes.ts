/**
 * What a paired serverbox may do with its token (issue 27, decision 0055): prove itself, report in
 * (heartbeat), list its club's upcoming races, and fetch what it needs to time one offline. A revoked
 * (inactive) or deleted box fails at once: every call reads its row. Also the club's list of its servers.
 */
import { and, asc, desc, eq, gte, isNotNull, or } from "drizzle-orm";
import { constantTimeEqualText, hashToken } from "../../core/auth/tokens";
import { isUpcomingForBox, MAX_BOX_RACES, RECENT_RACE_MS } from "../../core/servers/box-races";
import { serverStatusText } from "../../core/servers/pairing";
import { races, serverboxes, type Db } from "../../schema/d1";
import type { RaceDocumentKind, StoredDocument } from "../../schema/race/documents";
import { chipsOf } from "../../schema/race/racer";
import { getClubRaceCatalogue, roomOf, type RaceCatalogue } from "./race-access";
import { SERVER_TOKEN_PREFIX } from "./serverbox-pairing";
import { webClientBoxOf } from "./serverbox-webclients";
import { everyRacer } from "./race-racers";

export interface PairedBox {
  id: string;
  clubId: string;
  siteId: string | null;
  name: string;
}

/** Whether an Authorization credential is a serverbox token rather than a device credential. */
export function isServerToken(credential: string): boolean {
  return credential.startsWith(SERVER_TOKEN_PREFIX);
}

/** The active box a token `sbx_<serverId>.<secret>` belongs to, or null (unknown, wrong secret, revoked). */
export async function serverboxOfToken(db: Db, credential: string): Promise<PairedBox | null> {
  if (!isServerToken(credential)) return null;
  const token = credential.slice(SERVER_TOKEN_PREFIX.length);
  const dot = token.indexOf(".");
  if (dot <= 0) return null;
  const [box] = await db
    .select({ id: serverboxes.id, clubId: serverboxes.clubId, siteId: serverboxes.siteId, name: serverboxes.name, tokenHash: serverboxes.tokenHash })
    .from(serverboxes)
    .where(and(eq(serverboxes.id, token.slice(0, dot)), eq(serverboxes.isActive, true), isNotNull(serverboxes.tokenHash)))
    .limit(1);
  if (!box || !constantTimeEqualText(box.tokenHash!, hashToken(token.slice(dot + 1)))) return null;
  return { id: box.id, clubId: box.clubId, siteId: box.siteId, name: box.name };
}

/** The box reports in: last seen now, and its software version when it sent one. */
export async function recordHeartbeat(db: Db, box: PairedBox, softwareVersion: string | undefined, now: number): Promise<void> {
  await db
    .update(serverboxes)
    .set(softwareVersion === undefined ? { lastSeenTime: now } : { lastSeenTime: now, softwareVersion })
    .where(eq(serverboxes.id, box.id));
}

export interface BoxRace {
  id: string;
  name: string;
  start_time: number;
  end_time: number | null;
  timezone: string;
  location: string | null;
  sport: string | null;
}

/** The club's races a box is offered (core/servers/box-races.ts), soonest first. */
export async function boxRaces(db: Db, box: PairedBox, now: number): Promise<BoxRace[]> {
  const rows = await db
    .select({
      id: races.id,
      name: races.name,
      startTime: races.startTime,
      endTime: races.endTime,
      timezone: races.timezone,
      location: races.location,
      sport: races.sport,
    })
    .from(races)
    .where(and(eq(races.clubId, box.clubId), or(gte(races.startTime, now - RECENT_RACE_MS), gte(races.endTime, now))))
    .orderBy(asc(races.startTime))
    .limit(MAX_BOX_RACES);
  return rows
    .filter((r) => isUpcomingForBox(r, now))
    .map((r) => ({ id: r.id, name: r.name, start_time: r.startTime, end_time: r.endTime, timezone: r.timezone, location: r.location, sport: r.sport }));
}

/** A race of the box's own club, wherever the box asks from; another club's race is none of its business. */
export function boxRace(db: Db, box: PairedBox, raceId: string): Promise<RaceCatalogue | null> {
  return getClubRaceCatalogue(db, box.clubId, raceId);
}

/**
 * What a box needs to time a race offline: the race, its timing points, its devices (with whether each
 * has a credential, never the credential), its racers with bibs and chips (and the platform's result of
 * each so far), and the setup the results engine reads, so the box ranks as the race does (decision 0060).
 */
export async function racePackage(env: Env, race: RaceCatalogue) {
  const room = await roomOf(env, race);
  // The RPC stub loses the method's generic: the kinds asked for are the kinds returned (as in app/race-documents.server.ts).
  const documents = <K extends RaceDocumentKind>(kind: K) => room.documents(kind) as unknown as Promise<StoredDocument<K>[]>;
  const [points, devices, credentials, racers, settings, courses, startGroups, formats, groups] = await Promise.all([
    documents("TimingPoint"),
    documents("TimingDevice"),
    room.deviceCredentialStates(),
    everyRacer(room),
    room.settings(),
    documents("Course"),
    documents("StartGroup"),
    documents("ResultFormat"),
    documents("ResultGroup"),
  ]);
  return {
    race: {
      id: race.id,
      name: race.name,
      club_name: race.clubName,
      start_time: race.startTime,
      end_time: race.endTime,
      timezone: race.timezone,
      location: race.location,
      sport: race.sport,
    },
    timing_points: points.map((p) => ({
      id: p.id,
      name: p.data.name,
      devices: p.data.devices_list.map((d) => ({ id: d.id, mode: d.mode, channel: d.channel })),
    })),
    devices: devices.map((d) => ({
      id: d.id,
      type: d.data.type,
      name: d.data.humanname || d.data.name,
      channels: d.data.channels,
      offset: d.data.offset,
      has_credential: credentials[d.id] ?? false,
    })),
    racers: racers.map((r) => ({
      id: r.id,
      bib: r.data.bib,
      chips: chipsOf(r.data),
      first_name: r.data.first_name,
      last_name: r.data.last_name,
      category: r.data.category,
      start_group: r.data.setupgroup_id,
      start_time: r.data.assigned_start_time ?? r.data.scheduled_start_time,
      status: r.status,
      time: r.time,
    })),
    results_setup: {
      settings,
      documents: { Course: courses, TimingPoint: points, TimingDevice: devices, StartGroup: startGroups, ResultFormat: formats, ResultGroup: groups },
      racers: racers.map((r) => ({ id: r.id, data: r.data })),
    },
  };
}

export interface ClubServerRow {
  id: string;
  name: string;
  subtype: string;
  serial: string | null;
  softwareVersion: string | null;
  lastSeenTime: number | null;
  isActive: boolean;
  status: string;
}

/** A club's timing servers for its Servers page: active ones first, then by name. */
export async function clubServers(db: Db, clubId: string): Promise<ClubServerRow[]> {
  const rows = await db
    .select({
      id: serverboxes.id,
      name: serverboxes.name,
      subtype: serverboxes.subtype,
      serial: serverboxes.serial,
      softwareVersion: serverboxes.softwareVersion,
      lastSeenTime: serverboxes.lastSeenTime,
      isActive: serverboxes.isActive,
    })
    .from(serverboxes)
    .where(eq(serverboxes.clubId, clubId))
    .orderBy(desc(serverboxes.isActive), asc(serverboxes.name))
    .limit(500);
  // A web keypad's serial is `<boxId>/<phoneId>`: shown as the box it keys through.
  const names = new Map(rows.map((r) => [r.id, r.name]));
  return rows.map((r) => {
    const boxId = webClientBoxOf(r);
    return { ...r, serial: boxId === null ? r.serial : `via ${names.get(boxId) ?? "a serverbox"}`, status: serverStatusText(r) };
  });
}
