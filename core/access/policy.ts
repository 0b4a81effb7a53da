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
  // A racer's dead or lost chip swapped at the line (decision 0073): a timer's job, not only a race editor's.
  "replace_chip",
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
  /**
   * A platform-wide object (an activity or points system with no club, an inventory type): anyone whose roles
   * reach some objects of its area may view it; changing it stays with a reach of the whole area (decision 0057).
   */
  readonly platformWide?: boolean;
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
  // Viewing the division itself is needed to reach its reports; viewing passes is the club's check-in (decision 0050).
  division_reports: [
    { areas: ["divisions"], actions: ["view", "view_reports"] },
    { areas: ["reports"], actions: ["view_reports"] },
    { areas: ["passes"], actions: ["view"] },
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
  technical_delegate: [
    { areas: ["races", "devices"], actions: ["view", "edit", "time"] },
    { areas: ["races"], actions: ["replace_chip"] },
  ],
  // The timer at the finish is who meets a racer with a dead chip (decision 0073).
  race_timer: [
    { areas: ["races", "devices"], actions: ["view", "time"] },
    { areas: ["races"], actions: ["replace_chip"] },
  ],
  race_announcer: [{ areas: ["races"], actions: ["view", "announce"] }],
  race_photographer: [{ areas: ["races"], actions: ["view", "photograph"] }],
  private_results_viewer: [{ areas: ["races"], actions: ["view", "view_private_results"] }],
  depot_admin: [{ areas: ["depots"], actions: "all" }],
  // A depot user receives stock and starts, packs, ships and takes back shipments; deleting is the depot admin's.
  depot_user: [{ areas: ["depots"], actions: ["view", "create", "edit"] }],
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
  return permissions.some((p) => (p.areas === "all" || p.areas.includes(area)) && (p.actions === "all" || p.actions.includes(action)));
}

/** The owner kinds a role can be bound to; "item" is one object named by its own id. */
export type ReachKind = "clubs" | "sites" | "registrations" | "races" | "depots" | "item";

/** What one role reaches for an action on an area: everything, nothing, or the objects of one owner. */
export type RoleReach = { readonly kind: "all" } | { readonly kind: "none" } | { readonly kind: ReachKind; readonly id: string };

const none: RoleReach = { kind: "none" };

function bound(kind: ReachKind, id: string | null | undefined, allowed: boolean): RoleReach {
  return allowed && typeof id === "string" && id !== "" ? { kind, id } : none;
}

/**
 * The objects of `area` a role lets its holder act on. One function serves single checks (`can`) and list
 * queries (which turn reaches into SQL), so both always agree.
 */
export function roleReach(role: RoleGrant, action: Action, area: ProtectedArea): RoleReach {
  switch (role.type) {
    case "system_admin":
      return flagSet(role.config, area) ? { kind: "all" } : none;
    case "site_admin":
      return bound("sites", role.siteId, flagSet(role.config, area));
    case "org_admin":
    case "division_reports":
    case "financial_admin":
    case "all_registrations":
    case "communications":
    case "all_races":
    case "device":
      return bound("clubs", role.clubId, permits(rolePermissions[role.type], action, area));
    case "registration_admin":
    case "registration_finance":
    case "registration_readonly":
    case "report_edit_view":
    case "report_view":
      return bound("registrations", role.scope, permits(rolePermissions[role.type], action, area));
    case "race_admin":
    case "technical_delegate":
    case "race_timer":
    case "race_announcer":
    case "race_photographer":
    case "private_results_viewer":
      return bound("races", role.scope, permits(rolePermissions[role.type], action, area));
    case "depot_admin":
    case "depot_user":
      return bound("depots", role.scope, permits(rolePermissions[role.type], action, area));
    case "api_client_admin": {
      // The spec does not bind API Client Admin; a scope limits it to one app, else a club to that club's apps.
      if (!permits(rolePermissions[role.type], action, area)) return none;
      if (role.scope) return { kind: "item", id: role.scope };
      if (role.clubId) return { kind: "clubs", id: role.clubId };
      return { kind: "all" };
    }
  }
}

/** The object's owner of a kind (an object of that kind is its own owner). */
export function ownerOf(object: ProtectedObject, kind: ReachKind): string | null {
  switch (kind) {
    case "clubs":
      return owner(object, "clubs", object.clubId);
    case "sites":
      return owner(object, "sites", object.siteId);
    case "registrations":
      return owner(object, "registrations", object.registrationId);
    case "races":
      return owner(object, "races", object.raceId);
    case "depots":
      return owner(object, "depots", object.depotId);
    case "item":
      return object.id ?? null;
  }
}

// Which object the role is bound to must match before its permissions apply.
function roleAllows(role: RoleGrant, action: Action, object: ProtectedObject): boolean {
  const reach = roleReach(role, action, object.area);
  if (reach.kind === "all") return true;
  if (reach.kind === "none") return false;
  if (action === "view" && object.platformWide === true) return true;
  return same(reach.id, ownerOf(object, reach.kind));
}

/** The roles that count for a session: only the active one after a role switch (none if it is not held). */
export function effectiveRoles(principal: Principal): readonly RoleGrant[] {
  const active = principal.activeRoleId;
  if (active === undefined || active === null) return principal.roles;
  return principal.roles.filter((role) => role.id === active);
}

// A token grant limited to items names the owning object of its area (a form element's registration), else the object.
function tokenItemId(object: ProtectedObject): string | undefined {
  const own: Partial<Record<ProtectedArea, string | null | undefined>> = {
    registrations: object.registrationId,
    races: object.raceId,
    depots: object.depotId,
    clubs: object.clubId,
    sites: object.siteId,
  };
  return own[object.area] ?? object.id ?? undefined;
}

export function can(principal: Principal, action: Action, object: ProtectedObject): boolean {
  if (principal.tokenScopes !== undefined && missingScopes([scopeForArea(object.area)], principal.tokenScopes, tokenItemId(object)).length > 0) {
    return false;
  }
  return effectiveRoles(principal).some((role) => roleAllows(role, action, object));
}

/**
 * Whether the super-admin area opens to this principal (spec section 6): a System Administrator whose
 * configuration holds the area's flag (every object), or a Site Administrator whose does (its site's objects,
 * which the lists and checks then narrow to). Club roles administer their objects on their own pages instead.
 */
export function mayOpenAdminArea(principal: Principal, area: AdminAreaKey): boolean {
  return effectiveRoles(principal).some(
    (role) => (role.type === "system_admin" || role.type === "site_admin") && roleReach(role, "administer", area).kind !== "none",
  );
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
