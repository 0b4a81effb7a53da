/**
 * Roles given by people (issue 25, decision 0031): whoever administers a club, site, registration form, race
 * or shipping depot invites a person by e-mail to one of its roles; the account with that address accepts
 * through the link and holds the role. The link's token is stored only as its hash; an invitation is open for
 * 14 days and can be withdrawn, and a role can be taken back by the same people. Each inviter may send a
 * bounded number a day, counted in D1 in one conditional write; the mail's fate is shown to the inviters.
 */
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import * as z from "zod";
import { roleDefinition, roleHomePage, type RoleType } from "../../core/access/roles";
import { invitations, roles, users, type Db } from "../../schema/d1";
import { MAX_INVITATIONS_PER_USER as MAX_INVITATIONS_PER_DAY } from "../../core/auth/constants";
import { hashToken, randomToken } from "../auth/crypto";
import { originOf } from "../auth/hosts";
import { takeThrottle } from "../auth/throttle";
import { sendMail } from "../mail/mailer";
import { invitableRoles, roleColumnsFor, type InvitationLevel, type InvitationTarget } from "./invitation-targets";

export const INVITATION_DAYS = 14;
const DAY_MS = 86_400_000;

const WHAT: Record<InvitationLevel, string> = { club: "club", site: "site", registration: "registration form", race: "race", depot: "shipping depot" };

export const INVITATION_MESSAGES = {
  email: "Enter the e-mail address of the person to invite",
  role: (level: InvitationLevel) => `Choose one of the ${WHAT[level]}'s roles`,
  alreadyHolds: "This person already holds this role",
  ownRole: "You cannot take back your own role. Ask another administrator to do it.",
  tooMany: `You have sent ${MAX_INVITATIONS_PER_DAY} invitations today, the most one person may send in a day. Try again tomorrow.`,
  mailFailed: "The invitation is saved, but its e-mail could not be sent. Send it again in a few minutes; the new link replaces this one.",
  notFound: "This invitation link is not valid. Ask the person who invited you to send a new one.",
  withdrawn: "This invitation was withdrawn. Ask the person who invited you to send a new one.",
  expired: `This invitation has expired (they last ${INVITATION_DAYS} days). Ask the person who invited you to send a new one.`,
  accepted: "This invitation was already accepted.",
  otherAccount: (email: string) => `This invitation is for ${email}. Sign in with that address to accept it.`,
} as const;

/** The invite form of one kind of target: an address and one of the roles it offers. */
export function inviteSchemaFor(level: InvitationLevel) {
  const offered: readonly string[] = invitableRoles(level);
  return z.object({
    email: z.string().trim().toLowerCase().pipe(z.email(INVITATION_MESSAGES.email).max(254, INVITATION_MESSAGES.email)),
    role: z
      .string()
      .refine((type) => offered.includes(type), INVITATION_MESSAGES.role(level))
      .transform((type) => type as RoleType),
  });
}
export type InviteInput = z.output<ReturnType<typeof inviteSchemaFor>>;

export interface TargetPeople {
  holders: { roleId: string; email: string; name: string; label: string }[];
  pending: { id: string; email: string; label: string; expiresAt: number; mailState: "queued" | "sent" | "failed" }[];
}

/** The roles of a target: a club's and a site's by their columns, the others' by scope. */
function rolesOn(target: Pick<InvitationTarget, "level" | "id">) {
  if (target.level === "club") return and(eq(roles.clubId, target.id), isNull(roles.scope), isNull(roles.siteId));
  if (target.level === "site") return and(eq(roles.siteId, target.id), isNull(roles.scope));
  return eq(roles.scope, target.id);
}

/** Who holds a role on the target, and who was invited and has not answered yet. */
export async function peopleOf(db: Db, target: InvitationTarget, now: number): Promise<TargetPeople> {
  const offered: readonly string[] = invitableRoles(target.level);
  const [held, open] = await db.batch([
    db
      .select({ roleId: roles.id, type: roles.type, email: users.email, name: users.name })
      .from(roles)
      .innerJoin(users, eq(users.id, roles.userId))
      .where(rolesOn(target))
      .orderBy(users.email),
    db
      .select()
      .from(invitations)
      .where(and(eq(invitations.target, target.id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now)))
      .orderBy(desc(invitations.createdAt)),
  ]);
  return {
    holders: held
      .filter((r) => offered.includes(r.type))
      .map((r) => ({ roleId: r.roleId, email: r.email, name: r.name, label: roleDefinition(r.type as RoleType).label })),
    pending: open.map((i) => ({
      id: i.id,
      email: i.email,
      label: roleDefinition(i.roleType as RoleType).label,
      expiresAt: i.expiresAt,
      mailState: i.mailState,
    })),
  };
}

export interface Inviter {
  userId: string;
  name: string;
  /** A Site Administrator invitation carries the inviter's own area flags: no one gives more than they hold. */
  siteFlags?: Record<string, boolean>;
}

export type InviteOutcome = { ok: true; mailed: boolean } | { ok: false; errors: Record<string, string> };

/**
 * Invites `email` to a role on the target and mails the link. Inviting the same address to the same role again
 * (a double click, or a lost mail) replaces the open invitation: one link works, the newest.
 */
export async function invite(env: Env, db: Db, inviter: Inviter, target: InvitationTarget, input: InviteInput, now: number): Promise<InviteOutcome> {
  const columns = roleColumnsFor(target);
  const [holder] = await db
    .select({ id: roles.id })
    .from(roles)
    .innerJoin(users, eq(users.id, roles.userId))
    .where(and(eq(users.email, input.email), eq(roles.type, input.role), rolesOn(target)))
    .limit(1);
  if (holder) return { ok: false, errors: { email: INVITATION_MESSAGES.alreadyHolds } };
  const allowed = await takeThrottle(db, "invitationsFromUser", inviter.userId, now);
  if (!allowed.ok) return { ok: false, errors: { form: INVITATION_MESSAGES.tooMany } };
  const token = randomToken(32);
  const id = crypto.randomUUID();
  const open = and(
    eq(invitations.email, input.email),
    eq(invitations.roleType, input.role),
    eq(invitations.target, target.id),
    isNull(invitations.acceptedAt),
    isNull(invitations.revokedAt),
  );
  await db.batch([
    db.update(invitations).set({ revokedAt: now }).where(open),
    db.insert(invitations).values({
      id,
      createdAt: now,
      invitedBy: inviter.userId,
      email: input.email,
      roleType: input.role,
      clubId: columns.clubId,
      siteId: columns.siteId,
      scope: columns.scope,
      target: target.id,
      targetName: target.name,
      config: input.role === "site_admin" ? (inviter.siteFlags ?? {}) : {},
      tokenHash: hashToken(token),
      expiresAt: now + INVITATION_DAYS * DAY_MS,
    }),
  ]);
  const label = roleDefinition(input.role).label;
  const link = `${originOf(env, env.MAIN_HOST)}/invite/${token}`;
  try {
    await sendMail(env, db, {
      to: input.email,
      subject: `${inviter.name} invites you to be ${label} of ${target.name}`,
      text: [
        `${inviter.name} invites you to be ${label} of ${target.name} on Startline.`,
        "",
        `Accept the invitation: ${link}`,
        "",
        `Sign in with this address (${input.email}), or create an account with it, to accept. The link works for ${INVITATION_DAYS} days.`,
      ].join("\n"),
      track: { invitation: id },
    });
  } catch (error) {
    console.error("Invitation mail failed", id, error);
    await db.update(invitations).set({ mailState: "failed" }).where(eq(invitations.id, id));
    return { ok: true, mailed: false };
  }
  return { ok: true, mailed: true };
}

/** Withdraws an open invitation of this target; another target's id changes nothing. */
export async function withdrawInvitation(db: Db, target: Pick<InvitationTarget, "id">, invitationId: string, now: number): Promise<void> {
  await db
    .update(invitations)
    .set({ revokedAt: now })
    .where(and(eq(invitations.id, invitationId), eq(invitations.target, target.id), isNull(invitations.acceptedAt)));
}

/**
 * Takes a role back; only a role this target offers, held on this target, can be named. Nobody takes back
 * their own role here, so a club can never be left without the administrator who was using the page.
 */
export async function revokeRole(
  db: Db,
  target: Pick<InvitationTarget, "level" | "id">,
  roleId: string,
  byUserId: string,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const offered = [...invitableRoles(target.level)];
  const [held] = await db
    .select({ type: roles.type, userId: roles.userId })
    .from(roles)
    .where(and(eq(roles.id, roleId), rolesOn(target)))
    .limit(1);
  if (!held || !offered.includes(held.type as RoleType)) return { ok: true };
  if (held.userId === byUserId) return { ok: false, message: INVITATION_MESSAGES.ownRole };
  await db.delete(roles).where(and(eq(roles.id, roleId), rolesOn(target)));
  return { ok: true };
}

export type InvitationView =
  | { ok: true; id: string; email: string; roleType: RoleType; label: string; targetName: string; invitedBy: string; grant: RoleGrantColumns }
  | { ok: false; message: string };

type RoleGrantColumns = { clubId: string | null; siteId: string | null; scope: string | null };

/** What a link offers, or why it no longer does. */
export async function invitationOfToken(db: Db, token: string, now: number): Promise<InvitationView> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { ok: false, message: INVITATION_MESSAGES.notFound };
  const [row] = await db
    .select({ invitation: invitations, inviter: users.name })
    .from(invitations)
    .innerJoin(users, eq(users.id, invitations.invitedBy))
    .where(eq(invitations.tokenHash, hashToken(token)))
    .limit(1);
  if (!row) return { ok: false, message: INVITATION_MESSAGES.notFound };
  const i = row.invitation;
  if (i.revokedAt !== null) return { ok: false, message: INVITATION_MESSAGES.withdrawn };
  if (i.acceptedAt !== null) return { ok: false, message: INVITATION_MESSAGES.accepted };
  if (i.expiresAt <= now) return { ok: false, message: INVITATION_MESSAGES.expired };
  const roleType = i.roleType as RoleType;
  return {
    ok: true,
    id: i.id,
    email: i.email,
    roleType,
    label: roleDefinition(roleType).label,
    targetName: i.targetName,
    invitedBy: row.inviter,
    grant: { clubId: i.clubId, siteId: i.siteId, scope: i.scope },
  };
}

/**
 * Accepts for the signed-in account, which must have the invited address. The role's id is the invitation's,
 * so accepting twice (two tabs, a double click) gives one role; the batch writes both or neither.
 */
export async function acceptInvitation(
  db: Db,
  token: string,
  user: { id: string; email: string },
  now: number,
): Promise<{ ok: true; home: string } | { ok: false; message: string }> {
  const view = await invitationOfToken(db, token, now);
  if (!view.ok) {
    // The same account coming back to an invitation it accepted lands on the role again.
    const [mine] = await db
      .select({ id: invitations.id, roleType: invitations.roleType, clubId: invitations.clubId, siteId: invitations.siteId, scope: invitations.scope })
      .from(invitations)
      .where(and(eq(invitations.tokenHash, hashToken(token)), eq(invitations.acceptedBy, user.id)))
      .limit(1);
    return mine ? { ok: true, home: homeOf(mine.id, mine.roleType as RoleType, mine) } : view;
  }
  if (view.email !== user.email.toLowerCase()) return { ok: false, message: INVITATION_MESSAGES.otherAccount(view.email) };
  await db.batch([
    db
      .update(invitations)
      .set({ acceptedAt: now, acceptedBy: user.id })
      .where(and(eq(invitations.id, view.id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt))),
    // Columns in the table's order: id, created_at, field_mtimes, user_id, type, club_id, site_id, scope, config.
    db
      .insert(roles)
      .select(
        sql`SELECT id, ${now}, '{}', ${user.id}, role_type, club_id, site_id, scope, config FROM invitations WHERE id = ${view.id} AND accepted_by = ${user.id}`,
      )
      .onConflictDoNothing(),
  ]);
  return { ok: true, home: homeOf(view.id, view.roleType, view.grant) };
}

const homeOf = (id: string, type: RoleType, grant: RoleGrantColumns) => roleHomePage({ id, type, ...grant, config: {} }).href;
