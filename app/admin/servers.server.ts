/**
 * A club's timing servers (issue 27, decision 0055): its Servers page (list, revoke) and the pairing page
 * where an administrator approves or cancels a serverbox's request by the code the box shows. The rules
 * and writes are in workers/services/serverbox-pairing.ts and serverboxes.ts; revoking goes through the
 * entity service, so the page and /_admin/servers change a box alike.
 */
import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { inArray } from "drizzle-orm";
import * as z from "zod";
import type { Principal } from "../../core/access/policy";
import { formatUserCode } from "../../core/servers/pairing";
import { clubs, openDb } from "../../schema/d1";
import { Serverbox } from "../../schema/entities/equipment-classes";
import { changeEntity, readVisible, type Caller, type EntityContext } from "../../workers/services/entity-service";
import { approvePairing, cancelPairing, findPairing, pairingGrant } from "../../workers/services/serverbox-pairing";
import { clubServers } from "../../workers/services/serverboxes";
import { requireSession, rolesOf } from "../auth.server";
import { formatRaceDate } from "../format";
import { pageUrl, refuse, type PostedForm } from "../forms/posted-form.server";
import { clubZone } from "../registration-admin.server";

/** Who opens a club's servers: whoever may add serverboxes to it (its Organization Admin, a System Administrator with the servers flag). */
export async function requireServerAccess(request: Request, context: AppLoadContext, clubId: string) {
  const session = requireSession(request, context);
  const principal: Principal = { userId: session.user.id, roles: await rolesOf(context, session.user.id), activeRoleId: session.activeRoleId };
  if (!z.uuid().safeParse(clubId).success) throw new Response("Not found", { status: 404 });
  const db = openDb(context.env.DB);
  const club = await db.query.clubs.findFirst({ where: (c, { eq }) => eq(c.id, clubId), columns: { id: true, siteId: true } });
  // On a club's site host only that site's clubs exist; the admin host has no club pages.
  const onThisHost = context.tenant.kind === "main" || (context.tenant.kind === "site" && club?.siteId === context.tenant.siteId);
  if (!club || !onThisHost) throw new Response("Not found", { status: 404 });
  if (!pairingGrant(principal, club)) {
    throw principal.roles.some((r) => r.clubId === clubId) ? new Response("Forbidden", { status: 403 }) : new Response("Not found", { status: 404 });
  }
  const entityContext: EntityContext = { env: context.env, tenant: context.tenant, ctx: context.ctx, now: context.now, db };
  const caller: Caller = { principal, userId: session.user.id, appId: "" };
  return { db, principal, entityContext, caller, clubId, zone: await clubZone(db, clubId) };
}

export type ServerAccess = Awaited<ReturnType<typeof requireServerAccess>>;

export const serversPath = (clubId: string) => `/club/${clubId}/servers`;

export async function serverListData(access: ServerAccess) {
  const servers = await clubServers(access.db, access.clubId);
  return servers.map((s) => ({ ...s, lastSeen: s.lastSeenTime === null ? "Never" : formatRaceDate(s.lastSeenTime, access.zone) }));
}

/** Revokes a box: inactive at once, so its token fails from the next request on. A second click changes nothing. */
export async function revokeServer(access: ServerAccess, posted: PostedForm) {
  const id = z.uuid().safeParse(posted.target ?? "");
  const stored = id.success ? await readVisible(access.entityContext, access.caller, Serverbox, id.data) : null;
  if (!stored || stored.row.club !== access.clubId) return refuse(posted, { form: "No such server of this club" }, 404);
  const changed = await changeEntity(access.entityContext, access.caller, Serverbox, stored, { is_active: false }, undefined);
  if (!changed.ok) return refuse(posted, { form: changed.refusal.body.message }, changed.refusal.status === 400 ? 400 : 403);
  return redirect(pageUrl(serversPath(access.clubId), "serverRevoked"));
}

/** The clubs this person may pair a box with: the page's club first, then the others their roles allow. */
async function pairingClubs(access: ServerAccess) {
  const ids = [...new Set([access.clubId, ...access.principal.roles.map((r) => r.clubId).filter((c): c is string => c !== null)])];
  const rows = await access.db.select({ id: clubs.id, name: clubs.name, siteId: clubs.siteId }).from(clubs).where(inArray(clubs.id, ids));
  const allowed = rows.filter((c) => pairingGrant(access.principal, c));
  return allowed
    .sort((a, b) => (a.id === access.clubId ? -1 : b.id === access.clubId ? 1 : a.name.localeCompare(b.name)))
    .map((c) => ({ value: c.id, label: c.name }));
}

/** The pairing page: the code form, or the request a typed code names with the clubs to choose from. */
export async function pairingPageData(access: ServerAccess, url: URL) {
  const typed = url.searchParams.get("code");
  const base = { clubId: access.clubId, clubs: await pairingClubs(access), code: typed ?? "", request: null, codeError: null };
  if (typed === null || typed.trim() === "") return base;
  const found = await findPairing(access.db, access.principal.userId, typed, access.entityContext.now);
  if (!found.ok) return { ...base, codeError: found.message };
  const r = found.request;
  return {
    ...base,
    code: formatUserCode(r.userCode),
    request: { id: r.id, name: r.name, serial: r.serial, softwareVersion: r.softwareVersion, requested: formatRaceDate(r.created, access.zone) },
  };
}

const decisionForm = z.object({ request: z.uuid(), club: z.uuid() });

/** Approve or Cancel on the pairing page; the request's own id makes a second click act as the first. */
export async function decidePairing(access: ServerAccess, posted: PostedForm) {
  const parsed = decisionForm.safeParse({ request: posted.values.request, club: posted.values.club ?? access.clubId });
  if (!parsed.success) return refuse(posted, { form: "Type the code the serverbox shows, then approve it" });
  const { request, club } = parsed.data;
  const now = access.entityContext.now;
  if (posted.intent === "cancel") {
    const cancelled = await cancelPairing(access.db, access.principal, request, club, now);
    if (!cancelled.ok) return refuse(posted, { form: cancelled.message }, cancelled.status);
    return redirect(pageUrl(serversPath(access.clubId), "pairingCancelled"));
  }
  const approved = await approvePairing(access.db, access.principal, request, club, now);
  if (!approved.ok) return refuse(posted, approved.status === 403 ? { club: approved.message } : { form: approved.message }, approved.status);
  return redirect(pageUrl(serversPath(club), "paired"));
}
