/**
 * The super-admin area (platform.md section 2): one entry per area, each also the name of the
 * System Administrator configuration flag that decides whether a super admin may administer it.
 */
export const adminAreas = [
  { key: "users", label: "Users" },
  { key: "carts", label: "Carts" },
  { key: "clubs", label: "Organizations" },
  { key: "bankaccounts", label: "Bank Accounts" },
  { key: "divisions", label: "Membership System" },
  { key: "registrations", label: "Registration Forms" },
  { key: "races", label: "Races" },
  { key: "devices", label: "Timing Devices" },
  { key: "servers", label: "Serverboxes" },
  { key: "emails", label: "Newsletters" },
  { key: "depots", label: "Shipping Depots" },
  { key: "eventpages", label: "Event Pages" },
  { key: "pointsseries", label: "Race Series" },
  { key: "sites", label: "Whitelabel Sites" },
  { key: "validation", label: "Validation Systems" },
  { key: "activities", label: "Activities" },
  { key: "rankingschemes", label: "Ranking Schemes" },
  { key: "pages", label: "Pages" },
  { key: "cities", label: "Cities" },
  { key: "points", label: "Points Systems" },
  { key: "passes", label: "Passes & Member Cards" },
] as const;

export type AdminAreaKey = (typeof adminAreas)[number]["key"];

export function adminAreaHref(key: AdminAreaKey): string {
  return `/_admin/${key}`;
}

export function findAdminArea(key: string) {
  return adminAreas.find((area) => area.key === key) ?? null;
}
