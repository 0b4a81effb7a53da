/**
 * The access policy (platform.md section 6): whether a principal's roles, narrowed by the active role and a
 * third-party token's scopes, allow an action on an object. One pure function so every caller decides alike.
 */
import { findAdminArea, type AdminAreaKey } from "./admin-areas";
import { type RoleGrant, type RoleType } from "./roles";
import { missingScopes, scopeForArea, type ProtectedArea, type ScopeGrant } from "./scopes";

export const actions = [
  "view",
  "create",
  "edit",
  "delete",
  "administer",
  "view_reports",
  "edit_reports",
  "finance",
  "time",
  "announce",
  "photograph",
  "view_private_results",
] as const;

export type Action = (typeof actions)[number];

export interface Principal {
  readonly userId: string;
  readonly roles: readonly RoleGrant[];
  /** Set after a role switch: only this role counts for the session. */
  readonly activeRoleId?: string | null;
  /** Set for a third-party OAuth token: the object's scope must also be granted by it. */
  readonly tokenScopes?: readonly ScopeGrant[];
}

/**
 * What a check is about. Callers fill every owner they know (clubId, siteId, registrationId, raceId,
 * depotId); a missing owner never matches, so an incomplete object is refused rather than guessed.
 */
export interface ProtectedObject {
  readonly area: ProtectedArea;
  readonly id?: string;
  readonly clubId?: string | null;
  readonly siteId?: string | null;
  readonly registrationId?: string;
  readonly raceId?: string;
  readonly depotId?: string;
}

/** One permission: these actions on objects of these areas (within the role's club, site, form, race or depot). */
export interface Permission {
  readonly areas: readonly ProtectedArea[] | "all";
  readonly actions: readonly Action[] | "all";
}

/**
 * The permissions of every role that is not governed by config flags. Spec facts are in section 6; the
 * comments mark choices the spec leaves open.
 */
export const rolePermissions: Readonly<Record<Exclude<RoleType, "system_admin" | "site_admin">, readonly Permission[]>> = {
  org_admin: [{ areas: "all", actions: "all" }],
  // Viewing the division itself is needed to reach its reports.
  division_reports: [
    { areas: ["divisions"], actions: ["view", "view_reports"] },
    { areas: ["reports"], actions: ["view_reports"] },
  ],
  // Finance on the club's forms and carts covers payments and refunds taken through them.
  financial_admin: [
    { areas: ["transactions", "bankaccounts"], actions: ["view", "finance"] },
    { areas: ["registrations", "carts"], actions: ["finance"] },
  ],
  all_registrations: [{ areas: ["registrations"], actions: "all" }],
  communications: [{ areas: ["emails"], actions: "all" }],
  all_races: [{ areas: ["races", "devices", "pointsseries"], actions: "all" }],
  // A device must read the race it times.
  device: [{ areas: ["races"], actions: ["view", "time"] }],
  registration_admin: [{ areas: ["registrations", "carts", "reports"], actions: ["view", "edit", "administer"] }],
  registration_finance: [{ areas: ["registrations", "carts", "transactions"], actions: ["view", "finance"] }],
  registration_readonly: [{ areas: ["registrations", "carts"], actions: ["view"] }],
  report_edit_view: [{ areas: ["registrations", "reports"], actions: ["view_reports", "edit_reports"] }],
  report_view: [{ areas: ["registrations", "reports"], actions: ["view_reports"] }],
  race_admin: [{ areas: ["races", "devices"], actions: "all" }],
  technical_delegate: [{ areas: ["races", "devices"], actions: ["view", "edit", "time"] }],
  race_timer: [{ areas: ["races", "devices"], actions: ["view", "time"] }],
  race_announcer: [{ areas: ["races"], actions: ["view", "announce"] }],
  race_photographer: [{ areas: ["races"], actions: ["view", "photograph"] }],
  private_results_viewer: [{ areas: ["races"], actions: ["view", "view_private_results"] }],
  depot_admin: [{ areas: ["depots"], actions: "all" }],
  depot_user: [{ areas: ["depots"], actions: ["view", "edit"] }],
  api_client_admin: [{ areas: ["apps"], actions: ["view", "create", "edit", "delete", "administer"] }],
};

/** The super-admin flag that governs an object; section 8 wording when the area has none. */
export function superadminScopeFor(object: Pick<ProtectedObject, "area">): AdminAreaKey {
  const area = findAdminArea(object.area);
  if (!area) throw new Error("Object does not have an associated superadmin scope");
  return area.key;
}

// A flag counts only when literally true, so a stray "false" string or 1 grants nothing.
function flagSet(config: Readonly<Record<string, unknown>>, area: ProtectedArea): boolean {
  if (!findAdminArea(area)) return false;
  return config.all === true || config[area] === true;
}

// An object of the owning kind is its own owner, so {area: "races", id} works without repeating the id as raceId.
function owner(object: ProtectedObject, kind: ProtectedArea, explicit: string | null | undefined): string | null {
  if (explicit) return explicit;
  return object.area === kind && object.id ? object.id : null;
}

function same(a: string | null | undefined, b: string | null | undefined): boolean {
  return typeof a === "string" && a !== "" && a === b;
}

function permits(permissions: readonly Permission[], action: Action, area: ProtectedArea): boolean {
  return permissions.some(
    (p) => (p.areas === "all" || p.areas.includes(area)) && (p.actions === "all" || p.actions.includes(action)),
  );
}

// Which object the role is bound to must match before its permissions apply.
function roleAllows(role: RoleGrant, action: Action, object: ProtectedObject): boolean {
  switch (role.type) {
    case "system_admin":
      return flagSet(role.config, object.area);
    case "site_admin":
      return same(role.siteId, owner(object, "sites", object.siteId)) && flagSet(role.config, object.area);
    case "org_admin":
    case "division_reports":
    case "financial_admin":
    case "all_registrations":
    case "communications":
    case "all_races":
    case "device":
      return same(role.clubId, owner(object, "clubs", object.clubId)) && permits(rolePermissions[role.type], action, object.area);
    case "registration_admin":
    case "registration_finance":
    case "registration_readonly":
    case "report_edit_view":
    case "report_view":
      return same(role.scope, owner(object, "registrations", object.registrationId)) && permits(rolePermissions[role.type], action, object.area);
    case "race_admin":
    case "technical_delegate":
    case "race_timer":
    case "race_announcer":
    case "race_photographer":
    case "private_results_viewer":
      return same(role.scope, owner(object, "races", object.raceId)) && permits(rolePermissions[role.type], action, object.area);
    case "depot_admin":
    case "depot_user":
      return same(role.scope, owner(object, "depots", object.depotId)) && permits(rolePermissions[role.type], action, object.area);
    case "api_client_admin":
      return appInReach(role, object) && permits(rolePermissions[role.type], action, object.area);
  }
}

// The spec does not bind API Client Admin; a scope limits it to one app, else a club to that club's apps.
function appInReach(role: RoleGrant, object: ProtectedObject): boolean {
  if (role.scope) return same(role.scope, object.id);
  if (role.clubId) return same(role.clubId, object.clubId);
  return true;
}

/** The roles that count for a session: only the active one after a role switch (none if it is not held). */
export function effectiveRoles(principal: Principal): readonly RoleGrant[] {
  const active = principal.activeRoleId;
  if (active === undefined || active === null) return principal.roles;
  return principal.roles.filter((role) => role.id === active);
}

// A token grant limited to items names the object itself, which may be given as its owner field instead of id.
function tokenItemId(object: ProtectedObject): string | undefined {
  if (object.id) return object.id;
  const own: Partial<Record<ProtectedArea, string | null | undefined>> = {
    registrations: object.registrationId,
    races: object.raceId,
    depots: object.depotId,
    clubs: object.clubId,
    sites: object.siteId,
  };
  return own[object.area] ?? undefined;
}

export function can(principal: Principal, action: Action, object: ProtectedObject): boolean {
  if (principal.tokenScopes !== undefined && missingScopes([scopeForArea(object.area)], principal.tokenScopes, tokenItemId(object)).length > 0) {
    return false;
  }
  return effectiveRoles(principal).some((role) => roleAllows(role, action, object));
}

const registrationAccessRoles: ReadonlySet<RoleType> = new Set<RoleType>(["system_admin", "org_admin", "all_registrations", "site_admin"]);
const raceAccessRoles: ReadonlySet<RoleType> = new Set<RoleType>(["system_admin", "org_admin", "all_races", "site_admin"]);

/** Section 6: a club admin, registration-create or super admin role gives registration access. */
export function hasRegistrationAccess(roles: readonly RoleGrant[]): boolean {
  return roles.some((role) => registrationAccessRoles.has(role.type));
}

/** Section 6: a club admin, race-create or super admin role gives race access. */
export function hasRaceAccess(roles: readonly RoleGrant[]): boolean {
  return roles.some((role) => raceAccessRoles.has(role.type));
}
