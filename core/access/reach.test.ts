import { describe, expect, it } from "vitest";
import { actions, can, type Action, type Principal, type ProtectedObject, type ReachKind } from "./policy";
import { listReach, reachesNothing, tokenItemKind, type ListReach } from "./reach";
import { roleDefinition, roleTypes, type RoleGrant, type RoleType } from "./roles";
import { allScopes, type ProtectedArea, type ScopeGrant } from "./scopes";

// Owners used throughout: clubs A/B, sites S/T, registrations R/R2, races X/X2, depots D/D2, apps P1/P2.
const A = "club-A";
const B = "club-B";
const S = "site-S";
const T = "site-T";
const R = "reg-R";
const R2 = "reg-R2";
const X = "race-X";
const X2 = "race-X2";
const D = "depot-D";
const D2 = "depot-D2";
const P1 = "app-P1";

function grant(type: RoleType, fields: Partial<RoleGrant> = {}): RoleGrant {
  return { id: `role-${type}`, type, clubId: null, siteId: null, scope: null, config: {}, ...fields };
}

/** A role bound as its level requires: club A, site S, registration R, race X, depot D. */
function boundGrant(type: RoleType, fields: Partial<RoleGrant> = {}): RoleGrant {
  switch (roleDefinition(type).level) {
    case "system":
      return grant(type, { config: { all: true }, ...fields });
    case "site":
      return grant(type, { siteId: S, config: { registrations: true }, ...fields });
    case "club":
      return grant(type, { clubId: A, ...fields });
    case "registration":
      return grant(type, { clubId: A, scope: R, ...fields });
    case "race":
      return grant(type, { clubId: A, scope: X, ...fields });
    case "depot":
      return grant(type, { clubId: A, scope: D, ...fields });
    case "app":
      return grant(type, { scope: P1, ...fields });
  }
}

describe("tokenItemKind", () => {
  it("names the owning kind for areas that are their own owner kind", () => {
    expect(tokenItemKind("registrations")).toBe("registrations");
    expect(tokenItemKind("races")).toBe("races");
    expect(tokenItemKind("depots")).toBe("depots");
    expect(tokenItemKind("clubs")).toBe("clubs");
    expect(tokenItemKind("sites")).toBe("sites");
  });

  it("names the object itself for every other area", () => {
    const others: ProtectedArea[] = ["users", "apps", "reports", "transactions", "devices", "carts", "emails", "divisions", "pointsseries"];
    for (const area of others) expect(tokenItemKind(area), area).toBe("item");
  });
});

describe("listReach", () => {
  const principal = (roles: RoleGrant[], extra: Partial<Principal> = {}): Principal => ({ userId: "u1", roles, ...extra });

  it("reaches everything for a super admin with the area's flag, and nothing without it", () => {
    const reach = listReach(principal([grant("system_admin", { config: { races: true } })]), "view", "races");
    expect(reach).toEqual({ action: "view", all: true, owners: new Map(), tokenItems: null, tokenKind: "races" });
    const without = listReach(principal([grant("system_admin", { config: { races: true } })]), "view", "clubs");
    expect(without.all).toBe(false);
    expect(without.owners.size).toBe(0);
    expect(reachesNothing(without)).toBe(true);
  });

  it("gives no super-admin reach to areas without a flag, even with all", () => {
    for (const area of ["reports", "transactions", "apps"] as const) {
      const reach = listReach(principal([grant("system_admin", { config: { all: true } })]), "view", area);
      expect(reach.all, area).toBe(false);
      expect(reachesNothing(reach), area).toBe(true);
    }
  });

  it("binds a site admin to its site", () => {
    const reach = listReach(principal([grant("site_admin", { siteId: S, config: { clubs: true } })]), "edit", "clubs");
    expect(reach.all).toBe(false);
    expect([...reach.owners]).toEqual([["sites", [S]]]);
  });

  it("collects owners by kind, each id once", () => {
    const reach = listReach(
      principal([
        grant("org_admin", { id: "1", clubId: A }),
        grant("all_registrations", { id: "2", clubId: A }),
        grant("org_admin", { id: "3", clubId: B }),
        grant("registration_admin", { id: "4", scope: R }),
        grant("registration_readonly", { id: "5", scope: R2 }),
        grant("registration_finance", { id: "6", scope: R }),
        grant("race_timer", { id: "7", scope: X }), // no reach on registrations
      ]),
      "view",
      "registrations",
    );
    expect(reach.all).toBe(false);
    expect(Object.fromEntries(reach.owners)).toEqual({ clubs: [A, B], registrations: [R, R2] });
    expect(reach.tokenItems).toBeNull();
    expect(reachesNothing(reach)).toBe(false);
  });

  it("gives item reach to an API client admin bound to one app", () => {
    const reach = listReach(principal([grant("api_client_admin", { scope: P1, clubId: A })]), "edit", "apps");
    expect(Object.fromEntries(reach.owners)).toEqual({ item: [P1] });
    expect(reach.tokenKind).toBe("item");
    const club = listReach(principal([grant("api_client_admin", { clubId: A })]), "edit", "apps");
    expect(Object.fromEntries(club.owners)).toEqual({ clubs: [A] });
    expect(listReach(principal([grant("api_client_admin")]), "edit", "apps").all).toBe(true);
  });

  it("depends on the action", () => {
    const timer = principal([grant("race_timer", { scope: X })]);
    expect(Object.fromEntries(listReach(timer, "view", "races").owners)).toEqual({ races: [X] });
    expect(reachesNothing(listReach(timer, "edit", "races"))).toBe(true);
  });

  it("counts only the active role after a switch", () => {
    const roles = [grant("org_admin", { id: "org", clubId: A }), grant("race_admin", { id: "race", scope: X })];
    expect(Object.fromEntries(listReach(principal(roles, { activeRoleId: "race" }), "view", "races").owners)).toEqual({ races: [X] });
    expect(Object.fromEntries(listReach(principal(roles, { activeRoleId: null }), "view", "races").owners)).toEqual({ clubs: [A], races: [X] });
    expect(reachesNothing(listReach(principal(roles, { activeRoleId: "gone" }), "view", "races"))).toBe(true);
  });

  it("does not limit to items without token scopes or with an any-item grant", () => {
    const roles = [grant("org_admin", { clubId: A })];
    expect(listReach(principal(roles), "view", "races").tokenItems).toBeNull();
    const any = listReach(principal(roles, { tokenScopes: [{ scope: "races", anyItem: true, items: [] }] }), "view", "races");
    expect(any.tokenItems).toBeNull();
    const both = listReach(
      principal(roles, {
        tokenScopes: [
          { scope: "races", anyItem: false, items: [X] },
          { scope: "races", anyItem: true, items: [] },
        ],
      }),
      "view",
      "races",
    );
    expect(both.tokenItems).toBeNull();
  });

  it("limits to the union of a token's item grants for the area's scope, each id once", () => {
    const tokenScopes: ScopeGrant[] = [
      { scope: "races", anyItem: false, items: [X, X2] },
      { scope: "races", anyItem: false, items: [X2, "race-X3"] },
      { scope: "registrations", anyItem: false, items: [R] },
    ];
    const reach = listReach(principal([grant("org_admin", { clubId: A })], { tokenScopes }), "view", "races");
    expect(reach.tokenItems).toEqual([X, X2, "race-X3"]);
    expect(reach.tokenKind).toBe("races");
    expect(reachesNothing(reach)).toBe(false);
  });

  it("reaches nothing when the token lacks the area's scope, or carries no scopes", () => {
    const roles = [grant("org_admin", { clubId: A })];
    const other = listReach(principal(roles, { tokenScopes: [{ scope: "registrations", anyItem: true, items: [] }] }), "view", "races");
    expect(other.tokenItems).toEqual([]);
    expect(reachesNothing(other)).toBe(true);
    expect(reachesNothing(listReach(principal(roles, { tokenScopes: [] }), "view", "races"))).toBe(true);
  });

  it("reads the timingdevices token scope for the devices area", () => {
    const roles = [grant("org_admin", { clubId: A })];
    const reach = listReach(principal(roles, { tokenScopes: [{ scope: "timingdevices", anyItem: false, items: ["dev-1"] }] }), "view", "devices");
    expect(reach.tokenItems).toEqual(["dev-1"]);
    expect(reach.tokenKind).toBe("item");
    const wrong = listReach(principal(roles, { tokenScopes: [{ scope: "races", anyItem: true, items: [] }] }), "view", "devices");
    expect(wrong.tokenItems).toEqual([]);
  });
});

describe("reachesNothing", () => {
  const reach = (fields: Partial<ListReach>): ListReach => ({ action: "view", all: false, owners: new Map(), tokenItems: null, tokenKind: "item", ...fields });

  it("is true with no role reach", () => {
    expect(reachesNothing(reach({}))).toBe(true);
  });

  it("is false with a role reach and no token limit", () => {
    expect(reachesNothing(reach({ all: true }))).toBe(false);
    expect(reachesNothing(reach({ owners: new Map<ReachKind, string[]>([["clubs", [A]]]) }))).toBe(false);
  });

  it("is true when a token limits to no items, even with full role reach", () => {
    expect(reachesNothing(reach({ all: true, tokenItems: [] }))).toBe(true);
    expect(reachesNothing(reach({ all: true, tokenItems: ["x"] }))).toBe(false);
    expect(reachesNothing(reach({ tokenItems: ["x"] }))).toBe(true);
  });
});

// ---- Agreement between listReach (as the store turns it into SQL) and can -----------------------------

/**
 * A stored row: its area, id and owner columns. Like the entity registry, a row of an owner kind carries
 * its own id in that kind's column (a Registration's registrationId is its uuid).
 */
interface Row {
  readonly label: string;
  readonly area: ProtectedArea;
  readonly id: string;
  readonly clubId?: string;
  readonly siteId?: string;
  readonly registrationId?: string;
  readonly raceId?: string;
  readonly depotId?: string;
}

const ownerColumn: Record<Exclude<ReachKind, "item">, "clubId" | "siteId" | "registrationId" | "raceId" | "depotId"> = {
  clubs: "clubId",
  sites: "siteId",
  registrations: "registrationId",
  races: "raceId",
  depots: "depotId",
};

/** The value of a kind's column for the row (`item` is the id column), or null when the entity has none. */
function columnValue(row: Row, kind: ReachKind): string | null {
  if (kind === "item") return row.id;
  return row[ownerColumn[kind]] ?? null;
}

/**
 * Mirrors workers/data-api/entity-store.ts reachCondition (without the tenant's site): reach.all OR some
 * owner kind's column IN its ids; AND, for a token limited to items, the tokenKind column IN those items.
 */
function inReach(reach: ListReach, row: Row): boolean {
  const byRoles = reach.all || [...reach.owners].some(([kind, ids]) => ids.length > 0 && ids.includes(columnValue(row, kind) ?? "\u0000none"));
  if (!byRoles) return false;
  if (reach.tokenItems === null) return true;
  const value = columnValue(row, reach.tokenKind);
  return value !== null && reach.tokenItems.includes(value);
}

const ownKind: Partial<Record<ProtectedArea, "clubId" | "siteId" | "registrationId" | "raceId" | "depotId">> = {
  clubs: "clubId",
  sites: "siteId",
  registrations: "registrationId",
  races: "raceId",
  depots: "depotId",
};

/** The object as the data service builds it from a row (every owner column filled in). */
function fullObject(row: Row): ProtectedObject {
  return {
    area: row.area,
    id: row.id,
    clubId: row.clubId ?? null,
    siteId: row.siteId ?? null,
    registrationId: row.registrationId,
    raceId: row.raceId,
    depotId: row.depotId,
  };
}

/** The same object with its own-kind owner left out, as a caller that relies on the id would write it. */
function minimalObject(row: Row): ProtectedObject {
  const own = ownKind[row.area];
  const object: Record<string, unknown> = { ...fullObject(row) };
  if (own && row[own] === row.id) delete object[own];
  return object as unknown as ProtectedObject;
}

const rows: readonly Row[] = [
  // registrations: forms, and a form element (child of a form)
  { label: "form R", area: "registrations", id: R, registrationId: R, clubId: A, siteId: S },
  { label: "form R2", area: "registrations", id: R2, registrationId: R2, clubId: B, siteId: T },
  { label: "form R3 (club A, site T)", area: "registrations", id: "reg-R3", registrationId: "reg-R3", clubId: A, siteId: T },
  { label: "form R4 (no owners)", area: "registrations", id: "reg-R4", registrationId: "reg-R4" },
  { label: "element of R", area: "registrations", id: "fe-1", registrationId: R, clubId: A, siteId: S },
  { label: "element of R2", area: "registrations", id: "fe-2", registrationId: R2, clubId: B, siteId: T },
  // races
  { label: "race X", area: "races", id: X, raceId: X, clubId: A, siteId: S },
  { label: "race X2", area: "races", id: X2, raceId: X2, clubId: B, siteId: T },
  { label: "race X3 (club A, no site)", area: "races", id: "race-X3", raceId: "race-X3", clubId: A },
  // clubs and sites
  { label: "club A", area: "clubs", id: A, clubId: A, siteId: S },
  { label: "club B", area: "clubs", id: B, clubId: B, siteId: T },
  { label: "site S", area: "sites", id: S, siteId: S },
  { label: "site T", area: "sites", id: T, siteId: T },
  // users: a user has no owners; a role row has a club and site
  { label: "user u1", area: "users", id: "user-1" },
  { label: "role row of A", area: "users", id: "role-row-1", clubId: A, siteId: S },
  { label: "role row of B", area: "users", id: "role-row-2", clubId: B, siteId: T },
  // apps
  { label: "app P1", area: "apps", id: P1, clubId: A, siteId: S },
  { label: "app P2", area: "apps", id: "app-P2", clubId: B, siteId: T },
  { label: "app P3 (no owners)", area: "apps", id: "app-P3" },
  // depots and their shipments
  { label: "depot D", area: "depots", id: D, depotId: D, clubId: A, siteId: S },
  { label: "depot D2", area: "depots", id: D2, depotId: D2, clubId: B },
  { label: "shipment of D", area: "depots", id: "ship-1", depotId: D },
  { label: "shipment of D2", area: "depots", id: "ship-2", depotId: D2, clubId: B },
  // reports and transactions hang off a form
  { label: "report of R", area: "reports", id: "rep-1", registrationId: R, clubId: A, siteId: S },
  { label: "report of R2", area: "reports", id: "rep-2", registrationId: R2, clubId: B, siteId: T },
  { label: "transaction of R", area: "transactions", id: "tx-1", registrationId: R, clubId: A, siteId: S },
  { label: "transaction of R2", area: "transactions", id: "tx-2", registrationId: R2, clubId: B },
  { label: "club A transaction", area: "transactions", id: "tx-3", clubId: A },
  // a few more areas: devices (scope timingdevices) and carts
  { label: "device of X", area: "devices", id: "dev-1", raceId: X, clubId: A, siteId: S },
  { label: "device of X2", area: "devices", id: "dev-2", raceId: X2, clubId: B },
  { label: "cart of R", area: "carts", id: "cart-1", registrationId: R, clubId: A },
];

const anyTokenScopes: ScopeGrant[] = allScopes.map((scope) => ({ scope, anyItem: true, items: [] }));
const itemTokenScopes: ScopeGrant[] = [
  { scope: "registrations", anyItem: false, items: [R] },
  { scope: "races", anyItem: false, items: [X] },
  { scope: "clubs", anyItem: false, items: [A] },
  { scope: "sites", anyItem: false, items: [S] },
  { scope: "depots", anyItem: false, items: [D] },
  { scope: "apps", anyItem: false, items: [P1] },
  { scope: "reports", anyItem: false, items: ["rep-1"] },
  { scope: "transactions", anyItem: false, items: ["tx-1", "tx-2"] },
  { scope: "users", anyItem: false, items: ["role-row-1", "user-1"] },
  { scope: "timingdevices", anyItem: false, items: ["dev-2"] },
  { scope: "carts", anyItem: false, items: ["cart-1"] },
];
const otherItemTokenScopes: ScopeGrant[] = [
  { scope: "registrations", anyItem: false, items: [R2, "fe-1"] }, // fe-1 is an element id, not a form id
  { scope: "races", anyItem: false, items: [X2] },
  { scope: "clubs", anyItem: false, items: [B] },
  { scope: "sites", anyItem: false, items: [T] },
  { scope: "depots", anyItem: false, items: [D2, "ship-1"] },
  { scope: "apps", anyItem: false, items: ["app-P2"] },
  { scope: "reports", anyItem: false, items: ["rep-2", R] }, // a form id does not name a report
];
const mixedTokenScopes: ScopeGrant[] = [
  { scope: "registrations", anyItem: false, items: [R] },
  { scope: "registrations", anyItem: false, items: ["reg-R3"] },
  { scope: "races", anyItem: true, items: [] },
  { scope: "races", anyItem: false, items: [X2] },
  { scope: "clubs", anyItem: true, items: [] },
  { scope: "apps", anyItem: false, items: [] },
];

const tokenVariants: readonly (readonly [string, readonly ScopeGrant[] | undefined])[] = [
  ["no token", undefined],
  ["token with every scope", anyTokenScopes],
  ["token with no scopes", []],
  ["token limited to A/S/R/X/D items", itemTokenScopes],
  ["token limited to other items", otherItemTokenScopes],
  ["token with mixed grants", mixedTokenScopes],
];

const roleVariants: readonly (readonly [string, readonly RoleGrant[], Partial<Principal>])[] = [
  ...roleTypes.map((type) => [type, [boundGrant(type)], {}] as const),
  ["system_admin with one flag (races)", [grant("system_admin", { config: { races: true } })], {}],
  ["system_admin with all as a string", [grant("system_admin", { config: { all: "true" } })], {}],
  ["site_admin with all flags", [grant("site_admin", { siteId: S, config: { all: true } })], {}],
  ["site_admin with the clubs and apps flags", [grant("site_admin", { siteId: T, config: { clubs: true, apps: true, sites: true } })], {}],
  ["site_admin without a site", [grant("site_admin", { config: { all: true } })], {}],
  ["api_client_admin of club A", [grant("api_client_admin", { clubId: A })], {}],
  ["unbound api_client_admin", [grant("api_client_admin")], {}],
  ["org_admin of club B", [grant("org_admin", { clubId: B })], {}],
  ["org_admin without a club", [grant("org_admin")], {}],
  ["registration_admin of R2", [grant("registration_admin", { scope: R2, clubId: B })], {}],
  ["depot_user of D2", [grant("depot_user", { scope: D2 })], {}],
  [
    "several roles",
    [
      grant("org_admin", { id: "org-B", clubId: B }),
      grant("race_timer", { id: "timer-X", scope: X }),
      grant("registration_readonly", { id: "ro-R", scope: R }),
      grant("depot_admin", { id: "depot-D", scope: D }),
    ],
    {},
  ],
  [
    "switched to race_timer of X",
    [
      grant("org_admin", { id: "org-A", clubId: A }),
      grant("race_timer", { id: "timer-X", scope: X }),
      grant("system_admin", { id: "sys", config: { all: true } }),
    ],
    { activeRoleId: "timer-X" },
  ],
  [
    "switched to org_admin of A",
    [
      grant("org_admin", { id: "org-A", clubId: A }),
      grant("race_timer", { id: "timer-X", scope: X }),
      grant("system_admin", { id: "sys", config: { all: true } }),
    ],
    { activeRoleId: "org-A" },
  ],
  [
    "switched to a role not held",
    [grant("org_admin", { id: "org-A", clubId: A }), grant("system_admin", { id: "sys", config: { all: true } })],
    { activeRoleId: "someone-else" },
  ],
  ["no roles", [], {}],
];

function principalOf(roles: readonly RoleGrant[], extra: Partial<Principal>, tokenScopes: readonly ScopeGrant[] | undefined): Principal {
  return tokenScopes === undefined ? { userId: "u1", roles, ...extra } : { userId: "u1", roles, ...extra, tokenScopes };
}

const areas = [...new Set(rows.map((row) => row.area))];

interface Tally {
  inReach: number;
  outOfReach: number;
}

/** Every row where the list query and `can` disagree, for one set of roles under every token variant. */
function disagreements(roles: readonly RoleGrant[], extra: Partial<Principal>, action: Action, tally: Tally): string[] {
  const found: string[] = [];
  for (const [tokenLabel, tokenScopes] of tokenVariants) {
    const principal = principalOf(roles, extra, tokenScopes);
    for (const area of areas) {
      const reach = listReach(principal, action, area);
      for (const row of rows.filter((r) => r.area === area)) {
        const listed = inReach(reach, row);
        if (listed) tally.inReach++;
        else tally.outOfReach++;
        if (reachesNothing(reach) && listed) found.push(`${tokenLabel}: ${action} ${row.label}: listed although reachesNothing`);
        for (const [shape, object] of [
          ["full", fullObject(row)],
          ["minimal", minimalObject(row)],
        ] as const) {
          const allowed = can(principal, action, object);
          if (allowed !== listed) found.push(`${tokenLabel}: ${action} ${row.label} (${shape}): can=${allowed}, listed=${listed}`);
        }
      }
    }
  }
  return found;
}

describe("listReach agrees with can", () => {
  it("covers every area named in the brief and every role type", () => {
    for (const area of ["registrations", "races", "clubs", "sites", "users", "apps", "depots", "reports", "transactions"] as const) {
      expect(areas).toContain(area);
    }
    expect(new Set(roleVariants.flatMap(([, roles]) => roles.map((role) => role.type)))).toEqual(new Set(roleTypes));
  });

  for (const action of ["view", "edit"] as const) {
    describe(action, () => {
      for (const [label, roles, extra] of roleVariants) {
        it(label, () => {
          expect(disagreements(roles, extra, action, { inReach: 0, outOfReach: 0 })).toEqual([]);
        });
      }
    });
  }

  it("exercises both outcomes for view and edit (the matrix is not all yes or all no)", () => {
    for (const action of ["view", "edit"] as const) {
      const tally: Tally = { inReach: 0, outOfReach: 0 };
      for (const [, roles, extra] of roleVariants) disagreements(roles, extra, action, tally);
      expect(tally.inReach, action).toBeGreaterThan(100);
      expect(tally.outOfReach, action).toBeGreaterThan(100);
    }
  });

  it("agrees for every other action too", () => {
    const tally: Tally = { inReach: 0, outOfReach: 0 };
    const found = actions
      .filter((action) => action !== "view" && action !== "edit")
      .flatMap((action) => roleVariants.flatMap(([label, roles, extra]) => disagreements(roles, extra, action, tally).map((d) => `${label}, ${d}`)));
    expect(found).toEqual([]);
    expect(tally.inReach).toBeGreaterThan(50);
    expect(tally.outOfReach).toBeGreaterThan(50);
  });

  it("the matcher itself tells rows apart (spot checks against hand-worked expectations)", () => {
    const row = (label: string): Row => {
      const found = rows.find((r) => r.label === label);
      if (!found) throw new Error(label);
      return found;
    };
    const orgA: Principal = { userId: "u1", roles: [boundGrant("org_admin")] };
    expect(inReach(listReach(orgA, "view", "races"), row("race X"))).toBe(true);
    expect(inReach(listReach(orgA, "view", "races"), row("race X2"))).toBe(false);
    const timer: Principal = { userId: "u1", roles: [boundGrant("race_timer")] };
    expect(inReach(listReach(timer, "view", "devices"), row("device of X"))).toBe(true);
    expect(inReach(listReach(timer, "view", "devices"), row("device of X2"))).toBe(false);
    // Limited to form R by a token: the element of R is in, form R2 is out even for a club-wide role.
    const tokenR: Principal = {
      userId: "u1",
      roles: [grant("org_admin", { clubId: A }), grant("org_admin", { id: "b", clubId: B })],
      tokenScopes: itemTokenScopes,
    };
    expect(inReach(listReach(tokenR, "view", "registrations"), row("element of R"))).toBe(true);
    expect(inReach(listReach(tokenR, "view", "registrations"), row("form R2"))).toBe(false);
    // A token item on reports names the report, not its form.
    expect(inReach(listReach(tokenR, "view", "reports"), row("report of R"))).toBe(true);
    expect(inReach(listReach({ ...tokenR, tokenScopes: otherItemTokenScopes }, "view", "reports"), row("report of R"))).toBe(false);
    expect(inReach(listReach({ ...tokenR, tokenScopes: otherItemTokenScopes }, "view", "reports"), row("report of R2"))).toBe(true);
  });
});
