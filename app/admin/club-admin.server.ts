/** Who opens a club's Organization Admin pages (/club/{club}/admin and its Stripe return and refresh pages). */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { can } from "../../core/access/policy";
import { openDb } from "../../schema/d1";
import { Club } from "../../schema/entities/classes";
import { readVisible, type Caller, type EntityContext } from "../../workers/services/entity-service";
import { clubTarget } from "../../workers/services/invitation-targets";
import { requireSession, rolesOf } from "../auth.server";

/** The club's Organization Admin (or a System Administrator with the clubs flag): a club it may administer. */
export async function requireClubAdmin(request: Request, context: LoaderFunctionArgs["context"], clubId: string) {
  const session = requireSession(request, context);
  const principal = { userId: session.user.id, roles: await rolesOf(context, session.user.id), activeRoleId: session.activeRoleId };
  const db = openDb(context.env.DB);
  const entityContext: EntityContext = { env: context.env, tenant: context.tenant, ctx: context.ctx, now: context.now, db };
  const caller: Caller = { principal, userId: session.user.id, appId: "" };
  const stored = await readVisible(entityContext, caller, Club, clubId);
  // Someone with another role in this club knows it exists: they get the page that names the role needed.
  if (!stored) throw principal.roles.some((r) => r.clubId === clubId) ? new Response("Forbidden", { status: 403 }) : new Response("Not found", { status: 404 });
  if (!can(principal, "administer", { area: "clubs", clubId })) throw new Response("Forbidden", { status: 403 });
  const target = await clubTarget(db, stored.row.uuid as string);
  if (!target) throw new Response("Not found", { status: 404 });
  return { db, entityContext, caller, stored, principal, session, target };
}
