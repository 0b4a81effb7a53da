/**
 * Roles given by people (issue 25, decision 0031): someone who administers a race invites a person by e-mail
 * to one of its roles; the account with that address accepts through the link and holds the role. The
 * link's token is stored only as its hash; an invitation is open for 14 days and can be withdrawn, and a role
 * can be taken back by the same people.
 */
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import * as z from "zod";
import type { Principal } from "../../core/access/policy";
import { roleDefinition, roleDefinitions, roleHomePage, type RoleType } from "../../core/access/roles";
import { invitations, roles, users, type Db } from "../../schema/d1";
import { hashToken, randomToken } from "../auth/crypto";
import { originOf } from "../auth/hosts";
import { sendMail } from "../mail/mailer";
import { canOnRace, type RaceCatalogue } from "./race-access";

export const INVITATION_DAYS = 14;
const DAY_MS = 86_400_000;

/** The roles of a race that may be given by invitation: every role whose level is the race. */
export const RACE_INVITABLE_ROLES: readonly RoleType[] = roleDefinitions.filter((r) => r.level === "race").map((r) => r.type);

export const INVITATION_MESSAGES = {
  email: "Enter the e-mail address of the person to invite",
  role: "Choose one of the race's roles",
  alreadyHolds: "This person already holds this role",
  notFound: "This invitation link is not valid. Ask the person who invited you to send a new one.",
  withdrawn: "This invitation was withdrawn. Ask the person who invited you to send a new one.",
  expired: `This invitation has expired (they last ${INVITATION_DAYS} days). Ask the person who invited you to send a new one.`,
  accepted: "This invitation was already accepted.",
  otherAccount: (email: string) => `This invitation is for ${email}. Sign in with that address to accept it.`,
} as const;

export const inviteSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email(INVITATION_MESSAGES.email).max(254, INVITATION_MESSAGES.email)),
  role: z
    .string()
    .refine((type) => (RACE_INVITABLE_ROLES as readonly string[]).includes(type), INVITATION_MESSAGES.role)
    .transform((type) => type as RoleType),
});

/** Giving and taking back a race's roles is administration: Race Administrator, All Races, Organization Admin. */
export const mayGrantRaceRoles = (principal: Principal, race: RaceCatalogue) => canOnRace(principal, "administer", race);

export interface RacePeople {
  holders: { roleId: string; email: string; name: string; label: string }[];
  pending: { id: string; email: string; label: string; expiresAt: number }[];
}

/** Who holds a role on the race, and who was invited and has not answered yet. */
export async function racePeople(db: Db, raceId: string, now: number): Promise<RacePeople> {
  const held = await db
    .select({ roleId: roles.id, type: roles.type, email: users.email, name: users.name })
    .from(roles)
    .innerJoin(users, eq(users.id, roles.userId))
    .where(eq(roles.scope, raceId))
    .orderBy(users.email);
  const open = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.scope, raceId), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now)))
    .orderBy(desc(invitations.createdAt));
  return {
    holders: held.map((r) => ({ roleId: r.roleId, email: r.email, name: r.name, label: roleDefinition(r.type as RoleType).label })),
    pending: open.map((i) => ({ id: i.id, email: i.email, label: roleDefinition(i.roleType as RoleType).label, expiresAt: i.expiresAt })),
  };
}

/**
 * Invites `email` to a role on the race and mails the link. Inviting the same address to the same role again
 * (a double click, or a lost mail) replaces the open invitation: one link works, the newest.
 */
export async function inviteToRace(
  env: Env,
  db: Db,
  inviter: { userId: string; name: string },
  race: RaceCatalogue,
  input: z.output<typeof inviteSchema>,
  now: number,
): Promise<{ ok: true } | { ok: false; errors: Record<string, string> }> {
  const [holder] = await db
    .select({ id: roles.id })
    .from(roles)
    .innerJoin(users, eq(users.id, roles.userId))
    .where(and(eq(users.email, input.email), eq(roles.type, input.role), eq(roles.scope, race.id)))
    .limit(1);
  if (holder) return { ok: false, errors: { email: INVITATION_MESSAGES.alreadyHolds } };
  const token = randomToken(32);
  const open = and(
    eq(invitations.email, input.email),
    eq(invitations.roleType, input.role),
    eq(invitations.scope, race.id),
    isNull(invitations.acceptedAt),
    isNull(invitations.revokedAt),
  );
  await db.batch([
    db.update(invitations).set({ revokedAt: now }).where(open),
    db.insert(invitations).values({
      id: crypto.randomUUID(),
      createdAt: now,
      invitedBy: inviter.userId,
      email: input.email,
      roleType: input.role,
      clubId: race.clubId,
      scope: race.id,
      tokenHash: hashToken(token),
      expiresAt: now + INVITATION_DAYS * DAY_MS,
    }),
  ]);
  const label = roleDefinition(input.role).label;
  const link = `${originOf(env, env.MAIN_HOST)}/invite/${token}`;
  await sendMail(env, db, {
    to: input.email,
    subject: `${inviter.name} invites you to be ${label} of ${race.name}`,
    text: [
      `${inviter.name} invites you to be ${label} of ${race.name} (${race.clubName}) on Startline.`,
      "",
      `Accept the invitation: ${link}`,
      "",
      `Sign in with this address (${input.email}), or create an account with it, to accept. The link works for ${INVITATION_DAYS} days.`,
    ].join("\n"),
  });
  return { ok: true };
}

/** Withdraws an open invitation of this race. */
export async function withdrawInvitation(db: Db, raceId: string, invitationId: string, now: number): Promise<void> {
  await db
    .update(invitations)
    .set({ revokedAt: now })
    .where(and(eq(invitations.id, invitationId), eq(invitations.scope, raceId), isNull(invitations.acceptedAt)));
}

/** Takes a race role back; only roles on this race can be named. */
export async function revokeRaceRole(db: Db, raceId: string, roleId: string): Promise<void> {
  await db.delete(roles).where(and(eq(roles.id, roleId), eq(roles.scope, raceId)));
}

export type InvitationView =
  | { ok: true; id: string; email: string; roleType: RoleType; label: string; scope: string | null; clubId: string | null; invitedBy: string }
  | { ok: false; message: string };

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
  return { ok: true, id: i.id, email: i.email, roleType, label: roleDefinition(roleType).label, scope: i.scope, clubId: i.clubId, invitedBy: row.inviter };
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
      .select({ roleType: invitations.roleType, scope: invitations.scope, clubId: invitations.clubId, id: invitations.id })
      .from(invitations)
      .where(and(eq(invitations.tokenHash, hashToken(token)), eq(invitations.acceptedBy, user.id)))
      .limit(1);
    return mine ? { ok: true, home: homeOf(mine.id, mine.roleType as RoleType, mine.clubId, mine.scope) } : view;
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
        sql`SELECT id, ${now}, '{}', ${user.id}, role_type, club_id, NULL, scope, '{}' FROM invitations WHERE id = ${view.id} AND accepted_by = ${user.id}`,
      )
      .onConflictDoNothing(),
  ]);
  return { ok: true, home: homeOf(view.id, view.roleType, view.clubId, view.scope) };
}

const homeOf = (id: string, type: RoleType, clubId: string | null, scope: string | null) =>
  roleHomePage({ id, type, clubId, siteId: null, scope, config: {} }).href;
