/**
 * Pairing a serverbox with a club (issue 27, decision 0055), in the manner of RFC 8628's device grant: the
 * box starts a request (no account), a club administrator approves or cancels it by its user code, the box
 * polls until its token is handed out, once. Only hashes of the box's secrets are kept. The rules are in
 * core/servers/pairing.ts; each write here is one conditional statement or one batch, so two clicks on
 * Approve or two polls at once act once.
 */
import { and, desc, eq, isNull, lt, sql } from "drizzle-orm";
import { can, type Principal } from "../../core/access/policy";
import type { RoleGrant } from "../../core/access/roles";
import { constantTimeEqualText, hashToken, randomToken } from "../../core/auth/tokens";
import { initialMtimes } from "../../core/entity/field-mtimes";
import {
  normaliseUserCode,
  PAIRING_MESSAGES,
  PAIRING_VALID_MS,
  pairingRefusal,
  pairingStateOf,
  POLL_INTERVAL_S,
  pollOutcome,
  userCodeFrom,
} from "../../core/servers/pairing";
import { clubs, entityChanges, serverboxAuthRequests, serverboxes, throttleCounts, type Db } from "../../schema/d1";
import { uniqueConstraintOf } from "../../schema/d1/errors";
import { selectByName } from "../../schema/d1/insert-select";
import { Serverbox } from "../../schema/entities/equipment-classes";
import { takeFromWindow } from "../auth/window-counter";

export type PairingRequest = typeof serverboxAuthRequests.$inferSelect;

/** Ours: pairing requests one network may start in an hour, and wrong codes one person may type in 15 minutes. */
export const PAIRINGS_PER_CLIENT = { windowMs: 60 * 60 * 1000, limit: 30 } as const;
export const CODE_GUESSES_PER_USER = { windowMs: 15 * 60 * 1000, limit: 20 } as const;
/** A box's token: `sbx_<serverId>.<secret>`; the prefix tells it from a device credential on the timing API. */
export const SERVER_TOKEN_PREFIX = "sbx_";

export interface StartedPairing {
  requestId: string;
  deviceCode: string;
  userCode: string;
  expiresAt: number;
  interval: number;
}

/** A box's new request; null when its network has started too many this hour. */
export async function startPairing(
  db: Db,
  box: { serial: string; name: string; softwareVersion: string | null },
  clientKey: string,
  now: number,
): Promise<StartedPairing | null> {
  const w = PAIRINGS_PER_CLIENT;
  if ((await takeFromWindow(db, throttleCounts, `serverboxPairing:${clientKey}`, now, w.windowMs, w.limit)) === null) return null;
  const requestId = crypto.randomUUID();
  const secret = randomToken(32);
  // Two open requests may not share a code (a unique index); a clash, about one in 10^10, draws again.
  for (let attempt = 0; ; attempt++) {
    const userCode = userCodeFrom((count) => crypto.getRandomValues(new Uint8Array(count)));
    try {
      await db.insert(serverboxAuthRequests).values({
        id: requestId,
        secretHash: hashToken(secret),
        userCode,
        serial: box.serial,
        name: box.name,
        softwareVersion: box.softwareVersion,
        created: now,
        expires: now + PAIRING_VALID_MS,
        interval: POLL_INTERVAL_S,
      });
      return { requestId, deviceCode: `${requestId}.${secret}`, userCode, expiresAt: now + PAIRING_VALID_MS, interval: POLL_INTERVAL_S };
    } catch (error) {
      if (attempt >= 2 || uniqueConstraintOf(error) === null) throw error;
    }
  }
}

export type PollAnswer =
  | { ok: true; token: string; serverId: string; clubId: string }
  | {
      ok: false;
      error: "authorization_pending" | "slow_down" | "expired_token" | "access_denied" | "invalid_grant";
      message: string;
      interval?: number;
    };

/** The box's poll with its device code (RFC 8628 section 3.5 answers). */
export async function pollPairing(db: Db, deviceCode: string, now: number): Promise<PollAnswer> {
  const request = await requestOfDeviceCode(db, deviceCode);
  if (!request) return { ok: false, error: "invalid_grant", message: "Unknown device code. Start pairing again" };
  switch (pairingStateOf(request, now)) {
    case "cancelled":
      return { ok: false, error: "access_denied", message: "The pairing was cancelled. Start pairing again for a new code" };
    case "delivered":
      return { ok: false, error: "invalid_grant", message: "This request's token was already handed out. Start pairing again" };
    case "expired":
      return { ok: false, error: "expired_token", message: "The code expired before anyone approved it. Start pairing again" };
    case "approved":
      return deliverToken(db, request, now);
    case "pending":
      return pendingPoll(db, request, now);
  }
}

async function requestOfDeviceCode(db: Db, deviceCode: string): Promise<PairingRequest | null> {
  const dot = deviceCode.indexOf(".");
  if (dot <= 0) return null;
  const request = await db.query.serverboxAuthRequests.findFirst({ where: eq(serverboxAuthRequests.id, deviceCode.slice(0, dot)) });
  if (!request || !constantTimeEqualText(request.secretHash, hashToken(deviceCode.slice(dot + 1)))) return null;
  return request;
}

/**
 * Counts the poll: the outcome is pollOutcome's (core/servers/pairing.ts, the rule's one home), written only
 * while the row still holds the values it was computed from, so of two polls at once one passes and the other,
 * reading the first's write, is `slow_down`.
 */
async function pendingPoll(db: Db, read: PairingRequest, now: number): Promise<PollAnswer> {
  let seen: Pick<PairingRequest, "lastPoll" | "interval"> = read;
  for (let attempt = 0; attempt < 3; attempt++) {
    const outcome = pollOutcome(seen.lastPoll, seen.interval, now);
    const written = await db
      .update(serverboxAuthRequests)
      .set({ lastPoll: now, interval: outcome.interval })
      .where(
        and(
          eq(serverboxAuthRequests.id, read.id),
          seen.lastPoll === null ? isNull(serverboxAuthRequests.lastPoll) : eq(serverboxAuthRequests.lastPoll, seen.lastPoll),
          eq(serverboxAuthRequests.interval, seen.interval),
        ),
      )
      .returning({ interval: serverboxAuthRequests.interval });
    if (written.length === 1) return pollAnswer(outcome);
    const again = await db.query.serverboxAuthRequests.findFirst({ where: eq(serverboxAuthRequests.id, read.id) });
    if (!again) return { ok: false, error: "invalid_grant", message: "Unknown device code. Start pairing again" };
    seen = again;
  }
  // Three other polls won in a row: they came just now, so this one is too fast too.
  return pollAnswer({ slowDown: true, interval: seen.interval });
}

function pollAnswer(outcome: { slowDown: boolean; interval: number }): PollAnswer {
  return outcome.slowDown
    ? { ok: false, error: "slow_down", message: `Polling too fast: wait ${outcome.interval} seconds between polls`, interval: outcome.interval }
    : { ok: false, error: "authorization_pending", message: "Waiting for someone to approve the code", interval: outcome.interval };
}

/** The token, made now and handed out once: the batch sets its hash only while the request is undelivered. */
async function deliverToken(db: Db, request: PairingRequest, now: number): Promise<PollAnswer> {
  const serverId = request.serverId!;
  const secret = randomToken(32);
  const undelivered = and(
    eq(serverboxAuthRequests.id, request.id),
    isNull(serverboxAuthRequests.delivered),
    isNull(serverboxAuthRequests.cancelled),
    sql`${serverboxAuthRequests.completed} IS NOT NULL`,
  );
  const [, marked] = await db.batch([
    db
      .update(serverboxes)
      .set({ tokenHash: hashToken(secret) })
      .where(and(eq(serverboxes.id, serverId), sql`EXISTS (SELECT 1 FROM ${serverboxAuthRequests} WHERE ${undelivered})`)),
    db.update(serverboxAuthRequests).set({ delivered: now }).where(undelivered).returning({ id: serverboxAuthRequests.id }),
  ]);
  if (marked.length !== 1) return { ok: false, error: "invalid_grant", message: "This request's token was already handed out. Start pairing again" };
  return { ok: true, token: `${SERVER_TOKEN_PREFIX}${serverId}.${secret}`, serverId, clubId: request.clubId! };
}

export type FoundPairing = { ok: true; request: PairingRequest } | { ok: false; message: string; status: 400 | 404 | 429 };

/**
 * The request a person's typed code names. A code that names no request counts against the person, so
 * codes cannot be guessed by trying; a typo (not a code at all) does not.
 */
export async function findPairing(db: Db, userId: string, typed: string, now: number): Promise<FoundPairing> {
  const code = normaliseUserCode(typed);
  if (!code) return { ok: false, message: PAIRING_MESSAGES.malformed, status: 400 };
  const w = CODE_GUESSES_PER_USER;
  const request = await db.query.serverboxAuthRequests.findFirst({
    where: eq(serverboxAuthRequests.userCode, code),
    orderBy: desc(serverboxAuthRequests.created),
  });
  if (!request) {
    const counted = await takeFromWindow(db, throttleCounts, `serverboxCode:${userId}`, now, w.windowMs, w.limit);
    return counted === null
      ? { ok: false, message: PAIRING_MESSAGES.tooManyGuesses, status: 429 }
      : { ok: false, message: PAIRING_MESSAGES.unknown, status: 404 };
  }
  const refusal = pairingRefusal(pairingStateOf(request, now));
  return refusal ? { ok: false, message: refusal, status: 400 } : { ok: true, request };
}

/** The role grant that lets `principal` add serverboxes to the club (null for none). */
export function pairingGrant(principal: Principal, club: { id: string; siteId: string | null }): RoleGrant | null {
  const object = { area: "servers", clubId: club.id, siteId: club.siteId } as const;
  const roles = principal.roles.filter((r) => !principal.activeRoleId || r.id === principal.activeRoleId);
  return roles.find((role) => can({ userId: principal.userId, roles: [role] }, "create", object)) ?? null;
}

export type Approval = { ok: true; serverId: string; again: boolean } | { ok: false; message: string; status: 400 | 403 | 404 };

/**
 * Approves a pending request for a club: the box becomes a Serverbox of the club (or pairs anew the club's
 * active box with its serial), and the request is completed, in one batch whose inserts depend on the
 * request's update, so a second click (or a cancel in between) writes nothing. The second click of the
 * same person for the same club is told it is done.
 */
export async function approvePairing(db: Db, principal: Principal, requestId: string, clubId: string, now: number): Promise<Approval> {
  const club = await db.query.clubs.findFirst({ where: eq(clubs.id, clubId), columns: { id: true, siteId: true } });
  const grant = club ? pairingGrant(principal, club) : null;
  if (!club || !grant) return { ok: false, message: "You may not add serverboxes to this club", status: 403 };
  const request = await db.query.serverboxAuthRequests.findFirst({ where: eq(serverboxAuthRequests.id, requestId) });
  if (!request) return { ok: false, message: PAIRING_MESSAGES.unknown, status: 404 };
  const state = pairingStateOf(request, now);
  if (state !== "pending") return alreadyDecided(request, state, principal.userId, clubId);
  const [existing] = await db
    .select({ id: serverboxes.id })
    .from(serverboxes)
    .where(and(eq(serverboxes.clubId, club.id), eq(serverboxes.serial, request.serial), eq(serverboxes.isActive, true)))
    .limit(1);
  const serverId = existing?.id ?? crypto.randomUUID();
  const claimed = sql`EXISTS (SELECT 1 FROM ${serverboxAuthRequests} WHERE ${serverboxAuthRequests.id} = ${request.id} AND ${serverboxAuthRequests.serverId} = ${serverId} AND ${serverboxAuthRequests.completed} = ${now})`;
  const claim = db
    .update(serverboxAuthRequests)
    .set({ completed: now, serverId, clubId: club.id, siteId: club.siteId, roleId: grant.type === "system_admin" ? null : grant.id, userId: principal.userId })
    .where(
      and(
        eq(serverboxAuthRequests.id, request.id),
        isNull(serverboxAuthRequests.completed),
        isNull(serverboxAuthRequests.cancelled),
        sql`${serverboxAuthRequests.expires} > ${now}`,
      ),
    )
    .returning({ id: serverboxAuthRequests.id });
  const values = {
    club: club.id,
    site: club.siteId,
    name: request.name,
    subtype: "serverbox",
    serial: request.serial,
    software_version: request.softwareVersion,
    is_active: true,
  };
  const created = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null));
  const [claimedRows] = existing
    ? await db.batch([claim])
    : await db.batch([
        claim,
        // Written only with the claim: each insert selects its row WHERE the claim holds (decision 0069's selectByName).
        db.insert(serverboxes).select(
          selectByName(
            serverboxes,
            {
              id: serverId,
              createdAt: now,
              fieldMtimes: initialMtimes(values, now),
              clubId: club.id,
              siteId: club.siteId,
              name: request.name,
              subtype: "serverbox",
              serial: request.serial,
              softwareVersion: request.softwareVersion,
              isActive: true,
            },
            sql`WHERE ${claimed}`,
          ),
        ),
        // The registry's history of the create (entity-history.ts's shape).
        db.insert(entityChanges).select(
          selectByName(
            entityChanges,
            {
              id: crypto.randomUUID(),
              classname: Serverbox.classname,
              entityId: serverId,
              field: "*",
              kind: "created",
              newValue: JSON.stringify(created),
              userId: principal.userId,
              changedAt: now,
            },
            sql`WHERE ${claimed}`,
          ),
        ),
      ]);
  if (claimedRows.length === 1) return { ok: true, serverId, again: false };
  const after = await db.query.serverboxAuthRequests.findFirst({ where: eq(serverboxAuthRequests.id, request.id) });
  return after ? alreadyDecided(after, pairingStateOf(after, now), principal.userId, clubId) : { ok: false, message: PAIRING_MESSAGES.unknown, status: 404 };
}

function alreadyDecided(request: PairingRequest, state: ReturnType<typeof pairingStateOf>, userId: string, clubId: string): Approval {
  const same = (state === "approved" || state === "delivered") && request.userId === userId && request.clubId === clubId;
  if (same) return { ok: true, serverId: request.serverId!, again: true };
  return { ok: false, message: pairingRefusal(state) ?? PAIRING_MESSAGES.unknown, status: 400 };
}

/** Cancels a pending request: the box's next poll is told `access_denied`. A second click changes nothing. */
export async function cancelPairing(db: Db, principal: Principal, requestId: string, clubId: string, now: number): Promise<Approval> {
  const club = await db.query.clubs.findFirst({ where: eq(clubs.id, clubId), columns: { id: true, siteId: true } });
  if (!club || !pairingGrant(principal, club)) return { ok: false, message: "You may not add serverboxes to this club", status: 403 };
  const cancelled = await db
    .update(serverboxAuthRequests)
    .set({ cancelled: now, userId: principal.userId, clubId: club.id, siteId: club.siteId })
    .where(and(eq(serverboxAuthRequests.id, requestId), isNull(serverboxAuthRequests.completed), isNull(serverboxAuthRequests.cancelled)))
    .returning({ id: serverboxAuthRequests.id });
  if (cancelled.length === 1) return { ok: true, serverId: "", again: false };
  const request = await db.query.serverboxAuthRequests.findFirst({ where: eq(serverboxAuthRequests.id, requestId) });
  if (request?.cancelled !== null && request?.cancelled !== undefined && request.userId === principal.userId) return { ok: true, serverId: "", again: true };
  return { ok: false, message: request ? (pairingRefusal(pairingStateOf(request, now)) ?? PAIRING_MESSAGES.unknown) : PAIRING_MESSAGES.unknown, status: 400 };
}

/** Requests nobody decided on, a day after they expired (the cron's cleanup); decided ones stay as the record of who paired what. */
export async function deleteStalePairings(db: Db, now: number): Promise<void> {
  await db
    .delete(serverboxAuthRequests)
    .where(and(lt(serverboxAuthRequests.expires, now - 24 * 60 * 60 * 1000), isNull(serverboxAuthRequests.completed), isNull(serverboxAuthRequests.cancelled)));
}
