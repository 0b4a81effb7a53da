/**
 * What a role can be given on (decision 0031): a club, a site, a registration form, a race or a shipping
 * depot. Each target knows its owners, which roles it offers, who may give them (administer on the target,
 * through the one access policy) and the role row an accepted invitation becomes.
 */
import { eq } from "drizzle-orm";
import { can, type Principal } from "../../core/access/policy";
import { roleDefinitions, type RoleGrant, type RoleLevel, type RoleType } from "../../core/access/roles";
import type { ProtectedArea } from "../../core/access/scopes";
import { clubs, registrations, shippingDepots, sites, type Db } from "../../schema/d1";
import type { RaceCatalogue } from "./race-access";

export const INVITATION_LEVELS = ["club", "site", "registration", "race", "depot"] as const;
export type InvitationLevel = (typeof INVITATION_LEVELS)[number];

export interface InvitationTarget {
  level: InvitationLevel;
  id: string;
  name: string;
  clubId: string | null;
  siteId: string | null;
}

/**
 * The roles each target offers: every role of its level, except the Device role, which belongs to a timing
 * device's own account (given with its credential on the race's Devices tab), never to a person.
 */
export function invitableRoles(level: InvitationLevel): readonly RoleType[] {
  const roleLevel: RoleLevel = level;
  return roleDefinitions.filter((r) => r.level === roleLevel && r.type !== "device").map((r) => r.type);
}

const AREA: Record<InvitationLevel, ProtectedArea> = { club: "clubs", site: "sites", registration: "registrations", race: "races", depot: "depots" };

/** Giving and taking back a target's roles is administering it: the same check as its admin pages. */
export function mayGrantOn(principal: Principal | null, target: InvitationTarget): boolean {
  if (!principal) return false;
  return can(principal, "administer", {
    area: AREA[target.level],
    id: target.id,
    clubId: target.clubId,
    siteId: target.siteId,
    ...(target.level === "registration" ? { registrationId: target.id } : {}),
    ...(target.level === "race" ? { raceId: target.id } : {}),
    ...(target.level === "depot" ? { depotId: target.id } : {}),
  });
}

/** The columns of the role an accepted invitation writes (club roles by club, site roles by site, the rest by scope). */
export function roleColumnsFor(target: Pick<InvitationTarget, "level" | "id" | "clubId">): Pick<RoleGrant, "clubId" | "siteId" | "scope"> {
  if (target.level === "club") return { clubId: target.id, siteId: null, scope: null };
  if (target.level === "site") return { clubId: null, siteId: target.id, scope: null };
  return { clubId: target.clubId, siteId: null, scope: target.id };
}

/** Where the People section of each target lives (the invitation page links back to it). */
export function peoplePageOf(target: Pick<InvitationTarget, "level" | "id">): string {
  const id = encodeURIComponent(target.id);
  switch (target.level) {
    case "club":
      return `/club/${id}/admin`;
    case "site":
      return `/site/${id}/settings`;
    case "registration":
      return `/registration/${id}/admin/people`;
    case "race":
      return `/race/${id}/admin/people`;
    case "depot":
      return `/shipments/${id}`;
  }
}

export const raceTarget = (race: RaceCatalogue): InvitationTarget => ({
  level: "race",
  id: race.id,
  name: race.name,
  clubId: race.clubId,
  siteId: race.siteId,
});

export async function clubTarget(db: Db, clubId: string): Promise<InvitationTarget | null> {
  const [club] = await db.select({ id: clubs.id, name: clubs.name, siteId: clubs.siteId }).from(clubs).where(eq(clubs.id, clubId)).limit(1);
  return club ? { level: "club", id: club.id, name: club.name, clubId: club.id, siteId: club.siteId } : null;
}

export async function registrationTarget(db: Db, registrationId: string): Promise<InvitationTarget | null> {
  const [form] = await db
    .select({ id: registrations.id, name: registrations.name, clubId: registrations.clubId, siteId: registrations.siteId })
    .from(registrations)
    .where(eq(registrations.id, registrationId))
    .limit(1);
  return form ? { level: "registration", id: form.id, name: form.name, clubId: form.clubId, siteId: form.siteId } : null;
}

export async function siteTarget(db: Db, siteId: string): Promise<InvitationTarget | null> {
  const [site] = await db.select({ id: sites.id, config: sites.config, hostname: sites.hostname }).from(sites).where(eq(sites.id, siteId)).limit(1);
  return site ? { level: "site", id: site.id, name: site.config.name || site.hostname, clubId: null, siteId: site.id } : null;
}

export async function depotTarget(db: Db, depotId: string): Promise<InvitationTarget | null> {
  const [depot] = await db.select({ id: shippingDepots.id, name: shippingDepots.name }).from(shippingDepots).where(eq(shippingDepots.id, depotId)).limit(1);
  return depot ? { level: "depot", id: depot.id, name: depot.name, clubId: null, siteId: null } : null;
}
