/**
 * The named roles of platform.md section 6 as data, the stored role shape, and each role's home page
 * (section 2 "Role home pages").
 */
import { adminAreas } from "./admin-areas";
import { allScopes, scopeForArea, type Scope } from "./scopes";

export const roleTypes = [
  "system_admin",
  "site_admin",
  "org_admin",
  "division_reports",
  "financial_admin",
  "all_registrations",
  "communications",
  "all_races",
  "device",
  "registration_admin",
  "registration_finance",
  "registration_readonly",
  "report_edit_view",
  "report_view",
  "race_admin",
  "technical_delegate",
  "race_timer",
  "race_announcer",
  "race_photographer",
  "private_results_viewer",
  "depot_admin",
  "depot_user",
  "api_client_admin",
] as const;

export type RoleType = (typeof roleTypes)[number];

/** What a role is bound to: nothing (system), a site, a club, one registration, one race, one depot, or apps. */
export type RoleLevel = "system" | "site" | "club" | "registration" | "race" | "depot" | "app";

export interface RoleDefinition {
  readonly type: RoleType;
  readonly label: string;
  readonly description: string;
  readonly level: RoleLevel;
  readonly scopes: readonly Scope[];
}

/** A role as stored (spec entity Role: club, scope, config); `scope` is the registration, race, depot or app id. */
export interface RoleGrant {
  readonly id: string;
  readonly type: RoleType;
  readonly clubId: string | null;
  readonly siteId: string | null;
  readonly scope: string | null;
  readonly config: Readonly<Record<string, unknown>>;
}

// Super and site admins reach only areas that have a config flag, so their scopes are exactly those areas'.
const flaggedAreaScopes: readonly Scope[] = adminAreas.map((area) => scopeForArea(area.key));

/**
 * Every role, in the order of section 6. Where the spec names no scopes, the choice is the areas the role's
 * permissions in policy.ts touch (kept in step by a test).
 */
export const roleDefinitions: readonly RoleDefinition[] = [
  // Config flags narrow the super admin to some of these; reports, transactions and apps have no flag.
  { type: "system_admin", label: "System Administrator", description: "", level: "system", scopes: flaggedAreaScopes },
  // Same flags as the super admin, limited to the role's site.
  { type: "site_admin", label: "Site Administrator", description: "", level: "site", scopes: flaggedAreaScopes },
  { type: "org_admin", label: "Organization Admin", description: "Full Permissions", level: "club", scopes: allScopes },
  // Membership reports live on divisions.
  { type: "division_reports", label: "Division Reports", description: "Membership Reports", level: "club", scopes: ["divisions", "reports", "passes"] },
  // Merchant transactions plus the payment side of the club's forms and carts.
  {
    type: "financial_admin",
    label: "Financial Admin",
    description: "Merchant Account Transactions",
    level: "club",
    scopes: ["transactions", "bankaccounts", "registrations", "carts"],
  },
  { type: "all_registrations", label: "All Registrations", description: "", level: "club", scopes: ["registrations"] },
  // Newsletters are the "emails" area; "communications" is the matching token scope.
  { type: "communications", label: "Communications", description: "", level: "club", scopes: ["emails", "communications"] },
  { type: "all_races", label: "All Races", description: "", level: "club", scopes: ["races", "timingdevices", "pointsseries"] },
  // A timing device only reads and times races.
  { type: "device", label: "Device", description: "", level: "club", scopes: ["races"] },
  // Registration roles reach the form and what hangs off it (carts, reports, transactions) as their job needs.
  { type: "registration_admin", label: "Registration Form Admin", description: "", level: "registration", scopes: ["registrations", "carts", "reports"] },
  {
    type: "registration_finance",
    label: "Registration Form finance",
    description: "",
    level: "registration",
    scopes: ["registrations", "carts", "transactions"],
  },
  { type: "registration_readonly", label: "Registration Form Read-only", description: "", level: "registration", scopes: ["registrations", "carts"] },
  { type: "report_edit_view", label: "Edit and View Report", description: "", level: "registration", scopes: ["registrations", "reports"] },
  { type: "report_view", label: "View Report", description: "", level: "registration", scopes: ["registrations", "reports"] },
  // Race roles that work with the timing hardware of the race also get its devices.
  { type: "race_admin", label: "Race Administrator", description: "", level: "race", scopes: ["races", "timingdevices"] },
  { type: "technical_delegate", label: "Technical Delegate", description: "", level: "race", scopes: ["races", "timingdevices"] },
  { type: "race_timer", label: "Race Timer", description: "", level: "race", scopes: ["races", "timingdevices"] },
  { type: "race_announcer", label: "Race Announcer", description: "", level: "race", scopes: ["races"] },
  { type: "race_photographer", label: "Race Photographer", description: "", level: "race", scopes: ["races"] },
  { type: "private_results_viewer", label: "Private Results Viewer", description: "", level: "race", scopes: ["races"] },
  { type: "depot_admin", label: "Shipping Depot Admin", description: "", level: "depot", scopes: ["depots"] },
  { type: "depot_user", label: "Shipping Depot User", description: "", level: "depot", scopes: ["depots"] },
  { type: "api_client_admin", label: "API Client Admin", description: "", level: "app", scopes: ["apps"] },
];

const roleTypeSet: ReadonlySet<string> = new Set(roleTypes);

export function isRoleType(value: string): value is RoleType {
  return roleTypeSet.has(value);
}

export function roleDefinition(type: RoleType): RoleDefinition {
  const found = roleDefinitions.find((definition) => definition.type === type);
  // Unreachable while the table covers every type (a test checks it); throwing beats a silent wrong role.
  if (!found) throw new Error(`Unknown role type: ${type}`);
  return found;
}

export function roleLabel(type: RoleType): string {
  return roleDefinition(type).label;
}

export interface RolePage {
  readonly href: string;
  readonly title: string;
}

/** Where a role with a missing id lands: the manager area, which /login also uses on the main host. */
export const fallbackRolePage: RolePage = { href: "/manage", title: "Manage" };

// Ids go into a path segment, so they are encoded to keep the path one segment per id.
function segment(id: string): string {
  return encodeURIComponent(id);
}

function pageFor(id: string | null, build: (id: string) => RolePage): RolePage {
  return id ? build(segment(id)) : fallbackRolePage;
}

/**
 * The page a user lands on after switching to a role (section 2). Roles the spec gives no page go to the
 * nearest one: club-wide finance and communications to the club overview, the device role to /club/races,
 * the API client admin to /manage.
 */
export function roleHomePage(role: RoleGrant): RolePage {
  switch (role.type) {
    case "system_admin":
      return { href: "/_admin/clubs", title: "Organizations" };
    case "site_admin":
      return pageFor(role.siteId, (site) => ({ href: `/site/${site}/settings`, title: "Site Settings" }));
    case "org_admin":
    case "financial_admin":
    case "communications":
      return pageFor(role.clubId, (club) => ({ href: `/club/${club}/overview`, title: "Organization Overview" }));
    case "division_reports":
      return pageFor(role.clubId, (division) => ({ href: `/org/${division}/home`, title: "Membership Reports" }));
    case "all_registrations":
      return { href: "/club/registrations", title: "Registration Forms" };
    case "all_races":
    case "device":
      return { href: "/club/races", title: "Races" };
    case "registration_admin":
      return pageFor(role.scope, (id) => ({ href: `/registration/${id}/admin`, title: "Registration Form Admin" }));
    case "registration_finance":
    case "registration_readonly":
    case "report_edit_view":
    case "report_view":
      return pageFor(role.scope, (id) => ({ href: `/registration/${id}/overview`, title: "Registration Form Overview" }));
    case "race_admin":
      return pageFor(role.scope, (id) => ({ href: `/race/${id}/admin`, title: "Race Admin" }));
    case "technical_delegate":
    case "race_timer":
    case "race_announcer":
    case "race_photographer":
    case "private_results_viewer":
      return pageFor(role.scope, (id) => ({ href: `/race/${id}/overview`, title: "Race Overview" }));
    case "depot_admin":
    case "depot_user":
      return pageFor(role.scope, (depot) => ({ href: `/shipments/${depot}`, title: "Shipments" }));
    case "api_client_admin":
      return fallbackRolePage;
  }
}

/**
 * The admin page of a role whose home is an overview with a separate admin page (section 2 lists
 * /club/{club}/admin beside /club/{club}/overview); null when the role has none.
 */
export function roleAdminPage(role: RoleGrant): RolePage | null {
  if (role.type === "org_admin" && role.clubId) return { href: `/club/${segment(role.clubId)}/admin`, title: "Organization Admin" };
  if (role.type === "registration_admin" && role.scope) return { href: `/registration/${segment(role.scope)}/admin`, title: "Registration Form Admin" };
  if (role.type === "race_admin" && role.scope) return { href: `/race/${segment(role.scope)}/admin`, title: "Race Admin" };
  return null;
}
