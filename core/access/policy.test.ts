import { describe, expect, it } from "vitest";
import { adminAreas } from "./admin-areas";
import {
  actions,
  can,
  effectiveRoles,
  hasRaceAccess,
  hasRegistrationAccess,
  mayOpenAdminArea,
  rolePermissions,
  superadminScopeFor,
  type Action,
  type Principal,
  type ProtectedObject,
} from "./policy";
import { roleDefinition, roleTypes, type RoleGrant, type RoleType } from "./roles";
import { scopeForArea, type ScopeGrant } from "./scopes";

function grant(type: RoleType, fields: Partial<RoleGrant> = {}): RoleGrant {
  return { id: `role-${type}`, type, clubId: null, siteId: null, scope: null, config: {}, ...fields };
}

function as(...roles: RoleGrant[]): Principal {
  return { userId: "u1", roles };
}

type Case = readonly [Action, ProtectedObject];

interface RoleCases {
  readonly role: RoleGrant;
  readonly allowed: readonly Case[];
  readonly refused: readonly Case[];
}

const C1 = "club-1";
const C2 = "club-2";

// One entry per role type (the Record type makes a missing role a compile error).
const cases: Record<RoleType, RoleCases> = {
  system_admin: {
    role: grant("system_admin", { config: { races: true, clubs: true } }),
    allowed: [
      ["delete", { area: "races", id: "x1", clubId: C2 }],
      ["administer", { area: "clubs", id: C1 }],
      ["view_private_results", { area: "races", id: "x1" }],
    ],
    refused: [
      ["view", { area: "users", id: "u9" }], // missing flag
      ["view", { area: "devices", id: "d1" }], // flag "races" does not cover devices
      ["view", { area: "reports", registrationId: "r1" }], // no super-admin flag exists for reports
    ],
  },
  site_admin: {
    role: grant("site_admin", { siteId: "s1", config: { registrations: true, races: true, sites: true } }),
    allowed: [
      ["create", { area: "registrations", siteId: "s1", clubId: C1 }],
      ["create", { area: "races", siteId: "s1" }],
      ["edit", { area: "sites", id: "s1" }],
    ],
    refused: [
      ["create", { area: "registrations", siteId: "s2" }], // another site
      ["create", { area: "races", clubId: C1 }], // no site given
      ["edit", { area: "depots", siteId: "s1" }], // missing flag
      ["edit", { area: "sites", id: "s2" }], // another site
    ],
  },
  org_admin: {
    role: grant("org_admin", { clubId: C1 }),
    allowed: [
      ["administer", { area: "clubs", id: C1 }],
      ["create", { area: "registrations", clubId: C1 }],
      ["edit", { area: "races", id: "x1", clubId: C1 }],
      ["finance", { area: "transactions", id: "t1", clubId: C1 }],
    ],
    refused: [
      ["view", { area: "clubs", id: C2 }], // another club
      ["edit", { area: "races", id: "x1", clubId: C2 }], // another club
      ["edit", { area: "races", id: "x1" }], // club unknown
    ],
  },
  division_reports: {
    role: grant("division_reports", { clubId: C1 }),
    allowed: [
      ["view_reports", { area: "divisions", id: "dv1", clubId: C1 }],
      ["view_reports", { area: "reports", id: "rep1", clubId: C1 }],
    ],
    refused: [
      ["view_reports", { area: "divisions", id: "dv2", clubId: C2 }], // another club
      ["edit", { area: "divisions", id: "dv1", clubId: C1 }], // reports only
      ["view_reports", { area: "registrations", id: "r1", clubId: C1 }],
    ],
  },
  financial_admin: {
    role: grant("financial_admin", { clubId: C1 }),
    allowed: [
      ["finance", { area: "transactions", id: "t1", clubId: C1 }],
      ["view", { area: "transactions", id: "t1", clubId: C1 }],
      ["finance", { area: "registrations", id: "r1", clubId: C1 }],
    ],
    refused: [
      ["finance", { area: "transactions", id: "t1", clubId: C2 }], // another club
      ["edit", { area: "registrations", id: "r1", clubId: C1 }],
      ["view", { area: "emails", clubId: C1 }],
    ],
  },
  all_registrations: {
    role: grant("all_registrations", { clubId: C1 }),
    allowed: [
      ["create", { area: "registrations", clubId: C1 }],
      ["delete", { area: "registrations", id: "r1", clubId: C1 }],
    ],
    refused: [
      ["edit", { area: "registrations", id: "r2", clubId: C2 }], // another club
      ["create", { area: "races", clubId: C1 }],
    ],
  },
  communications: {
    role: grant("communications", { clubId: C1 }),
    allowed: [
      ["create", { area: "emails", clubId: C1 }],
      ["edit", { area: "emails", id: "e1", clubId: C1 }],
    ],
    refused: [
      ["edit", { area: "emails", id: "e2", clubId: C2 }], // another club
      ["view", { area: "registrations", id: "r1", clubId: C1 }],
    ],
  },
  all_races: {
    role: grant("all_races", { clubId: C1 }),
    allowed: [
      ["create", { area: "races", clubId: C1 }],
      ["edit", { area: "devices", id: "dev1", clubId: C1 }],
      ["administer", { area: "pointsseries", id: "ps1", clubId: C1 }],
    ],
    refused: [
      ["edit", { area: "races", id: "x2", clubId: C2 }], // another club
      ["create", { area: "registrations", clubId: C1 }],
    ],
  },
  device: {
    role: grant("device", { clubId: C1 }),
    allowed: [["time", { area: "races", id: "x1", clubId: C1 }]],
    refused: [
      ["time", { area: "races", id: "x2", clubId: C2 }], // another club
      ["edit", { area: "races", id: "x1", clubId: C1 }],
      ["replace_chip", { area: "races", id: "x1", clubId: C1 }], // a device times; people hand out chips
    ],
  },
  registration_admin: {
    role: grant("registration_admin", { clubId: C1, scope: "r1" }),
    allowed: [
      ["edit", { area: "registrations", id: "r1" }],
      ["administer", { area: "registrations", id: "r1", clubId: C1 }],
      ["view", { area: "carts", id: "cart1", registrationId: "r1" }],
    ],
    refused: [
      ["edit", { area: "registrations", id: "r2", clubId: C1 }], // another registration
      ["delete", { area: "registrations", id: "r1" }],
      ["finance", { area: "registrations", id: "r1" }],
    ],
  },
  registration_finance: {
    role: grant("registration_finance", { scope: "r1" }),
    allowed: [
      ["finance", { area: "registrations", id: "r1" }],
      ["finance", { area: "transactions", id: "t1", registrationId: "r1" }],
      ["view", { area: "registrations", id: "r1" }],
    ],
    refused: [
      ["finance", { area: "registrations", id: "r2" }], // another registration
      ["edit", { area: "registrations", id: "r1" }],
    ],
  },
  registration_readonly: {
    role: grant("registration_readonly", { scope: "r1" }),
    allowed: [["view", { area: "registrations", id: "r1" }]],
    refused: [
      ["view", { area: "registrations", id: "r2" }], // another registration
      ["edit", { area: "registrations", id: "r1" }],
      ["view_reports", { area: "registrations", id: "r1" }],
    ],
  },
  report_edit_view: {
    role: grant("report_edit_view", { scope: "r1" }),
    allowed: [
      ["view_reports", { area: "registrations", id: "r1" }],
      ["edit_reports", { area: "reports", id: "rep1", registrationId: "r1" }],
    ],
    refused: [
      ["edit_reports", { area: "reports", id: "rep2", registrationId: "r2" }], // another registration
      ["edit", { area: "registrations", id: "r1" }],
    ],
  },
  report_view: {
    role: grant("report_view", { scope: "r1" }),
    allowed: [["view_reports", { area: "reports", id: "rep1", registrationId: "r1" }]],
    refused: [
      ["view_reports", { area: "reports", id: "rep2", registrationId: "r2" }], // another registration
      ["edit_reports", { area: "reports", id: "rep1", registrationId: "r1" }],
    ],
  },
  race_admin: {
    role: grant("race_admin", { scope: "x1" }),
    allowed: [
      ["administer", { area: "races", id: "x1" }],
      ["delete", { area: "races", id: "x1" }],
      ["view_private_results", { area: "races", id: "x1" }],
    ],
    refused: [
      ["view", { area: "races", id: "x2" }], // another race
      ["edit", { area: "registrations", id: "r1", raceId: "x1" }],
    ],
  },
  technical_delegate: {
    role: grant("technical_delegate", { scope: "x1" }),
    allowed: [
      ["edit", { area: "races", id: "x1" }],
      ["time", { area: "devices", id: "dev1", raceId: "x1" }],
      ["replace_chip", { area: "races", id: "x1" }],
    ],
    refused: [
      ["edit", { area: "races", id: "x2" }], // another race
      ["delete", { area: "races", id: "x1" }],
      ["replace_chip", { area: "devices", id: "dev1", raceId: "x1" }], // chips are the race's, not a device's
    ],
  },
  race_timer: {
    role: grant("race_timer", { scope: "x1" }),
    allowed: [
      ["time", { area: "races", id: "x1" }],
      ["view", { area: "races", id: "x1" }],
      ["replace_chip", { area: "races", id: "x1" }], // a dead chip at the line (decision 0073)
    ],
    refused: [
      ["time", { area: "races", id: "x2" }], // another race
      ["replace_chip", { area: "races", id: "x2" }], // another race
      ["edit", { area: "races", id: "x1" }],
    ],
  },
  race_announcer: {
    role: grant("race_announcer", { scope: "x1" }),
    allowed: [["announce", { area: "races", id: "x1" }]],
    refused: [
      ["announce", { area: "races", id: "x2" }], // another race
      ["time", { area: "races", id: "x1" }],
      ["replace_chip", { area: "races", id: "x1" }],
    ],
  },
  race_photographer: {
    role: grant("race_photographer", { scope: "x1" }),
    allowed: [["photograph", { area: "races", id: "x1" }]],
    refused: [
      ["photograph", { area: "races", id: "x2" }], // another race
      ["announce", { area: "races", id: "x1" }],
    ],
  },
  private_results_viewer: {
    role: grant("private_results_viewer", { scope: "x1" }),
    allowed: [
      ["view_private_results", { area: "races", id: "x1" }],
      ["view", { area: "races", id: "x1" }],
    ],
    refused: [
      ["view_private_results", { area: "races", id: "x2" }], // another race
      ["edit", { area: "races", id: "x1" }],
    ],
  },
  depot_admin: {
    role: grant("depot_admin", { scope: "dp1" }),
    allowed: [
      ["delete", { area: "depots", id: "dp1" }],
      ["administer", { area: "depots", id: "dp1" }],
    ],
    refused: [
      ["view", { area: "depots", id: "dp2" }], // another depot
      ["view", { area: "races", id: "x1", depotId: "dp1" }],
    ],
  },
  depot_user: {
    role: grant("depot_user", { scope: "dp1" }),
    allowed: [
      ["edit", { area: "depots", id: "dp1" }],
      ["view", { area: "depots", id: "dp1" }],
      ["create", { area: "depots", id: "dp1" }],
    ],
    refused: [
      ["edit", { area: "depots", id: "dp2" }], // another depot
      ["delete", { area: "depots", id: "dp1" }],
      ["administer", { area: "depots", id: "dp1" }],
    ],
  },
  api_client_admin: {
    role: grant("api_client_admin", { clubId: C1 }),
    allowed: [["administer", { area: "apps", id: "app1", clubId: C1 }]],
    refused: [
      ["administer", { area: "apps", id: "app2", clubId: C2 }], // another club
      ["administer", { area: "races", id: "x1", clubId: C1 }],
    ],
  },
};

describe("can, per role", () => {
  for (const type of roleTypes) {
    const { role, allowed, refused } = cases[type];
    describe(type, () => {
      it("has at least one allowed and one refused case", () => {
        expect(allowed.length).toBeGreaterThan(0);
        expect(refused.length).toBeGreaterThan(0);
      });
      for (const [action, object] of allowed) {
        it(`allows ${action} on ${JSON.stringify(object)}`, () => {
          expect(can(as(role), action, object)).toBe(true);
        });
      }
      for (const [action, object] of refused) {
        it(`refuses ${action} on ${JSON.stringify(object)}`, () => {
          expect(can(as(role), action, object)).toBe(false);
        });
      }
    });
  }
});

describe("can, role details", () => {
  it("lets a super admin with `all` act in every admin area but not in areas without a flag", () => {
    const admin = as(grant("system_admin", { config: { all: true } }));
    for (const area of adminAreas) expect(can(admin, "delete", { area: area.key, id: "x" })).toBe(true);
    expect(can(admin, "view", { area: "apps", id: "a1" })).toBe(false);
    expect(can(admin, "view", { area: "transactions", id: "t1" })).toBe(false);
  });

  it("counts a flag only when it is literally true", () => {
    const admin = as(grant("system_admin", { config: { races: "true", users: 1, carts: false, all: "yes" } }));
    expect(can(admin, "view", { area: "races", id: "x1" })).toBe(false);
    expect(can(admin, "view", { area: "users", id: "u1" })).toBe(false);
    expect(can(admin, "view", { area: "carts", id: "c1" })).toBe(false);
  });

  it("refuses a site admin without a site, even with every flag", () => {
    const admin = as(grant("site_admin", { siteId: null, config: { all: true } }));
    expect(can(admin, "create", { area: "races", siteId: "s1" })).toBe(false);
    expect(can(admin, "create", { area: "races", siteId: null })).toBe(false);
  });

  it("binds an API client admin with a scope to that one app, and without club or scope to any app", () => {
    expect(can(as(grant("api_client_admin", { scope: "app1" })), "edit", { area: "apps", id: "app1" })).toBe(true);
    expect(can(as(grant("api_client_admin", { scope: "app1" })), "edit", { area: "apps", id: "app2" })).toBe(false);
    expect(can(as(grant("api_client_admin")), "administer", { area: "apps", id: "app9" })).toBe(true);
  });

  it("refuses an object-bound role whose bound id is missing", () => {
    expect(can(as(grant("race_timer", { scope: null })), "time", { area: "races", id: "x1" })).toBe(false);
    expect(can(as(grant("org_admin", { clubId: null })), "view", { area: "races", id: "x1", clubId: null })).toBe(false);
    expect(can(as(grant("registration_admin", { scope: "" })), "view", { area: "registrations", id: "" })).toBe(false);
  });

  it("allows when any held role allows", () => {
    const principal = as(grant("race_timer", { id: "a", scope: "x1" }), grant("race_announcer", { id: "b", scope: "x1" }));
    expect(can(principal, "time", { area: "races", id: "x1" })).toBe(true);
    expect(can(principal, "announce", { area: "races", id: "x1" })).toBe(true);
    expect(can(principal, "photograph", { area: "races", id: "x1" })).toBe(false);
  });

  it("refuses everyone with no roles", () => {
    for (const action of actions) expect(can(as(), action, { area: "races", id: "x1", clubId: C1 })).toBe(false);
  });
});

describe("active role narrowing", () => {
  const orgAdmin = grant("org_admin", { id: "org", clubId: C1 });
  const timer = grant("race_timer", { id: "timer", scope: "x1" });
  const race = { area: "races", id: "x1", clubId: C1 } as const;

  it("counts only the active role once one is set", () => {
    const principal: Principal = { userId: "u1", roles: [orgAdmin, timer], activeRoleId: "timer" };
    expect(can(principal, "time", race)).toBe(true);
    expect(can(principal, "edit", race)).toBe(false);
    expect(effectiveRoles(principal)).toEqual([timer]);
  });

  it("counts every role when no role is active", () => {
    expect(can({ userId: "u1", roles: [orgAdmin, timer], activeRoleId: null }, "edit", race)).toBe(true);
    expect(can({ userId: "u1", roles: [orgAdmin, timer] }, "edit", race)).toBe(true);
  });

  it("counts nothing when the active role is not held", () => {
    const principal: Principal = { userId: "u1", roles: [orgAdmin, timer], activeRoleId: "someone-elses" };
    expect(effectiveRoles(principal)).toEqual([]);
    expect(can(principal, "view", race)).toBe(false);
  });
});

describe("token scopes", () => {
  const orgAdmin = grant("org_admin", { clubId: C1 });
  const withToken = (tokenScopes: readonly ScopeGrant[]): Principal => ({ userId: "u1", roles: [orgAdmin], tokenScopes });

  it("needs the object's scope on the token as well as a role", () => {
    const token = withToken([{ scope: "races", anyItem: true, items: [] }]);
    expect(can(token, "edit", { area: "races", id: "x1", clubId: C1 })).toBe(true);
    expect(can(token, "edit", { area: "registrations", id: "r1", clubId: C1 })).toBe(false);
  });

  it("uses the token scope name of the area (timingdevices for devices)", () => {
    const object = { area: "devices", id: "dev1", clubId: C1 } as const;
    expect(can(withToken([{ scope: "timingdevices", anyItem: true, items: [] }]), "edit", object)).toBe(true);
    expect(can(withToken([{ scope: "races", anyItem: true, items: [] }]), "edit", object)).toBe(false);
  });

  it("limits an item grant to the listed ids", () => {
    const token = withToken([{ scope: "registrations", anyItem: false, items: ["r1"] }]);
    expect(can(token, "edit", { area: "registrations", id: "r1", clubId: C1 })).toBe(true);
    expect(can(token, "edit", { area: "registrations", id: "r2", clubId: C1 })).toBe(false);
    expect(can(token, "edit", { area: "registrations", registrationId: "r1", clubId: C1 })).toBe(true);
    expect(can(token, "create", { area: "registrations", clubId: C1 })).toBe(false);
  });

  it("never widens the roles: a token scope without a role allows nothing", () => {
    const principal: Principal = {
      userId: "u1",
      roles: [grant("race_timer", { scope: "x1" })],
      tokenScopes: [{ scope: "races", anyItem: true, items: [] }],
    };
    expect(can(principal, "time", { area: "races", id: "x1" })).toBe(true);
    expect(can(principal, "edit", { area: "races", id: "x1" })).toBe(false);
  });

  it("allows nothing with an empty token", () => {
    expect(can(withToken([]), "view", { area: "races", id: "x1", clubId: C1 })).toBe(false);
  });
});

describe("superadminScopeFor", () => {
  it("names the flag of an admin area", () => {
    expect(superadminScopeFor({ area: "devices" })).toBe("devices");
    expect(superadminScopeFor({ area: "clubs" })).toBe("clubs");
  });

  it("throws the section 8 message for areas without a flag", () => {
    for (const area of ["reports", "transactions", "apps"] as const) {
      expect(() => superadminScopeFor({ area })).toThrowError(new Error("Object does not have an associated superadmin scope"));
    }
  });
});

describe("registration and race access", () => {
  it("is given by club admin, create and super admin roles", () => {
    expect(hasRegistrationAccess([grant("org_admin", { clubId: C1 })])).toBe(true);
    expect(hasRegistrationAccess([grant("all_registrations", { clubId: C1 })])).toBe(true);
    expect(hasRegistrationAccess([grant("site_admin", { siteId: "s1" })])).toBe(true);
    expect(hasRegistrationAccess([grant("system_admin")])).toBe(true);
    expect(hasRaceAccess([grant("org_admin", { clubId: C1 })])).toBe(true);
    expect(hasRaceAccess([grant("all_races", { clubId: C1 })])).toBe(true);
    expect(hasRaceAccess([grant("site_admin", { siteId: "s1" })])).toBe(true);
    expect(hasRaceAccess([grant("system_admin")])).toBe(true);
  });

  it("is not given by the other create role or by object-bound roles", () => {
    expect(hasRegistrationAccess([grant("all_races", { clubId: C1 })])).toBe(false);
    expect(hasRaceAccess([grant("all_registrations", { clubId: C1 })])).toBe(false);
    expect(hasRegistrationAccess([grant("registration_admin", { scope: "r1" }), grant("report_view", { scope: "r1" })])).toBe(false);
    expect(hasRaceAccess([grant("race_admin", { scope: "x1" })])).toBe(false);
    expect(hasRegistrationAccess([])).toBe(false);
  });
});

describe("role permissions and role scopes", () => {
  it("keep every area a role can act on within the scopes of its definition", () => {
    for (const [type, permissions] of Object.entries(rolePermissions) as [RoleType, (typeof rolePermissions)["org_admin"]][]) {
      const scopes = roleDefinition(type).scopes;
      for (const permission of permissions) {
        if (permission.areas === "all") continue;
        for (const area of permission.areas) expect(scopes, `${type} acts on ${area}`).toContain(scopeForArea(area));
      }
    }
  });
});

describe("who opens a super-admin area", () => {
  it("is a System Administrator or a Site Administrator whose configuration holds the area's flag", () => {
    expect(mayOpenAdminArea(as(grant("system_admin", { config: { divisions: true } })), "divisions")).toBe(true);
    expect(mayOpenAdminArea(as(grant("system_admin", { config: { divisions: true } })), "clubs")).toBe(false);
    expect(mayOpenAdminArea(as(grant("system_admin", { config: { all: true } })), "passes")).toBe(true);
    expect(mayOpenAdminArea(as(grant("site_admin", { siteId: "s1", config: { pages: true } })), "pages")).toBe(true);
    // A site administrator bound to no site reaches nothing.
    expect(mayOpenAdminArea(as(grant("site_admin", { siteId: null, config: { pages: true } })), "pages")).toBe(false);
    expect(mayOpenAdminArea(as(grant("site_admin", { siteId: "s1", config: { pages: "true" } })), "pages")).toBe(false);
  });

  it("is never a club role, however much it may do on its own club's pages", () => {
    for (const type of roleTypes.filter((t) => t !== "system_admin" && t !== "site_admin")) {
      const held = grant(type, { clubId: "c1", scope: "x1", config: { all: true } });
      for (const area of adminAreas) expect(mayOpenAdminArea(as(held), area.key), `${type} ${area.key}`).toBe(false);
    }
  });
});

describe("platform-wide objects (decision 0057)", () => {
  const who = (roles: RoleGrant[]) => ({ userId: "u", roles });
  const platformActivity = { area: "activities" as const, id: "a1", clubId: null, siteId: null, platformWide: true };
  const catalogueType = { area: "depots" as const, id: "t1", platformWide: true };

  it("are read by every role that reaches some of their area, and changed only by a reach of the whole area", () => {
    const clubAdmin = who([grant("org_admin", { clubId: "c1" })]);
    expect(can(clubAdmin, "view", platformActivity)).toBe(true);
    expect(can(clubAdmin, "edit", platformActivity)).toBe(false);
    expect(can(clubAdmin, "delete", platformActivity)).toBe(false);
    const depotAdmin = who([grant("depot_admin", { scope: "d1" })]);
    expect(can(depotAdmin, "view", catalogueType)).toBe(true);
    expect(can(depotAdmin, "edit", catalogueType)).toBe(false);
    const superAdmin = who([grant("system_admin", { config: { depots: true } })]);
    expect(can(superAdmin, "edit", catalogueType)).toBe(true);
  });

  it("stay closed to roles that reach nothing of their area", () => {
    expect(can(who([grant("division_reports", { clubId: "c1" })]), "view", platformActivity)).toBe(false);
    expect(can(who([]), "view", catalogueType)).toBe(false);
    // A club's own activity is still its club's only.
    expect(can(who([grant("org_admin", { clubId: "c1" })]), "view", { area: "activities", id: "a2", clubId: "c2" })).toBe(false);
  });
});
