/**
 * The server half of every People section (club, site, registration form, race, depot): what it shows and the
 * three things it does — invite, withdraw an invitation, take a role back — all through the invitations
 * service, after the caller is known to administer the target (mayGrantOn). A withdraw or take-back is asked
 * for twice: the row's button opens a confirmation (`?withdraw=` / `?revoke=`), whose button does it.
 */
import { redirect } from "@remix-run/cloudflare";
import type { Principal } from "../../core/access/policy";
import { roleDefinition } from "../../core/access/roles";
import { openDb, type Db } from "../../schema/d1";
import { loadRoles } from "../../workers/auth/roles";
import { invitableRoles, mayGrantOn, type InvitationTarget } from "../../workers/services/invitation-targets";
import { invite, INVITATION_MESSAGES, inviteSchemaFor, peopleOf, revokeRole, withdrawInvitation, type Inviter } from "../../workers/services/invitations";
import { pageUrl, parseForm, refuse, type PostedForm } from "../forms/posted-form.server";

export const PEOPLE_INTENTS = ["invite", "withdraw", "revoke"] as const;

/** Refuses anyone who may not give the target's roles. */
export function requireGranter(principal: Principal | null, target: InvitationTarget): void {
  if (!mayGrantOn(principal, target)) throw new Response("Forbidden", { status: 403 });
}

export type PeopleData = Awaited<ReturnType<typeof peopleData>>;

/** Holders, open invitations, the roles on offer and the confirmation the address asks for, if any. */
export async function peopleData(db: Db, target: InvitationTarget, request: Request, now: number) {
  const people = await peopleOf(db, target, now);
  const params = new URL(request.url).searchParams;
  const revoking = people.holders.find((h) => h.roleId === params.get("revoke")) ?? null;
  const withdrawing = people.pending.find((p) => p.id === params.get("withdraw")) ?? null;
  return {
    ...people,
    level: target.level,
    base: new URL(request.url).pathname,
    roles: invitableRoles(target.level).map((type) => ({ value: type, label: roleDefinition(type).label })),
    confirm: revoking
      ? { intent: "revoke" as const, target: revoking.roleId, title: `Take back ${revoking.label} from ${revoking.name}?`, label: "Take back the role" }
      : withdrawing
        ? { intent: "withdraw" as const, target: withdrawing.id, title: `Withdraw the invitation to ${withdrawing.email}?`, label: "Withdraw the invitation" }
        : null,
  };
}

/** A Site Administrator invitation gives the inviter's own area flags, never more. */
function siteFlagsOf(principal: Principal, target: InvitationTarget): Record<string, boolean> {
  const own = principal.roles.find((r) => r.type === "system_admin" || (r.type === "site_admin" && r.siteId === target.id));
  return Object.fromEntries(Object.entries(own?.config ?? {}).filter((entry): entry is [string, true] => entry[1] === true));
}

/** Handles a People intent; null when the posted intent is not one of them (the page has others). */
export async function peopleAction(
  env: Env,
  db: Db,
  principal: Principal,
  user: { id: string; name: string },
  target: InvitationTarget,
  posted: PostedForm,
  base: string,
  now: number,
): Promise<Response | ReturnType<typeof refuse> | null> {
  requireGranter(principal, target);
  if (posted.intent === "invite") {
    const parsed = parseForm(inviteSchemaFor(target.level), posted);
    if (!parsed.ok) return parsed.reply;
    const inviter: Inviter = { userId: user.id, name: user.name, siteFlags: siteFlagsOf(principal, target) };
    const sent = await invite(env, db, inviter, target, parsed.value, now);
    if (!sent.ok) return refuse(posted, sent.errors, sent.errors.form ? 429 : 400);
    // Saved but not mailed: the page says so, and the invitation shows as not delivered until sent again.
    return sent.mailed ? redirect(pageUrl(base, "invited")) : refuse(posted, { form: INVITATION_MESSAGES.mailFailed }, 502);
  }
  if (posted.intent === "withdraw" && posted.target) {
    await withdrawInvitation(db, target, posted.target, now);
    return redirect(pageUrl(base, "withdrawn"));
  }
  if (posted.intent === "revoke" && posted.target) {
    const taken = await revokeRole(db, target, posted.target, user.id);
    return taken.ok ? redirect(pageUrl(base, "revoked")) : refuse(posted, { form: taken.message }, 409);
  }
  return null;
}

/**
 * A page about one target (a site's settings, a depot's shipments) whose People section is its first real
 * tool: the signed-in principal, and whether they may open the page at all (`mayView`, else 403) and give roles.
 */
export async function requireTargetPage(
  context: { env: Env; session: { user: { id: string; name: string }; activeRoleId?: string | null } },
  target: InvitationTarget | null,
  mayView: (principal: Principal) => boolean,
) {
  if (!target) throw new Response("Not found", { status: 404 });
  const db = openDb(context.env.DB);
  const principal: Principal = {
    userId: context.session.user.id,
    roles: await loadRoles(db, context.session.user.id),
    activeRoleId: context.session.activeRoleId,
  };
  const mayGrant = mayGrantOn(principal, target);
  if (!mayGrant && !mayView(principal)) throw new Response("Forbidden", { status: 403 });
  return { db, principal, mayGrant, user: { id: context.session.user.id, name: context.session.user.name } };
}
