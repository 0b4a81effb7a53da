import { describe, expect, it } from "vitest";
import { adminAreas } from "./admin-areas";
import {
  fallbackRolePage,
  isRoleType,
  roleAdminPage,
  roleDefinition,
  roleDefinitions,
  roleHomePage,
  roleLabel,
  roleTypes,
  type RoleGrant,
  type RoleType,
} from "./roles";
import { allScopes } from "./scopes";

function grant(type: RoleType, fields: Partial<RoleGrant> = {}): RoleGrant {
  return { id: `role-${type}`, type, clubId: null, siteId: null, scope: null, config: {}, ...fields };
}

describe("role definitions", () => {
  it("defines every role type exactly once", () => {
    expect(roleDefinitions.map((d) => d.type)).toEqual([...roleTypes]);
    expect(roleTypes).toHaveLength(23);
  });

  it("uses the labels and descriptions of the spec", () => {
    const expected: Record<RoleType, string> = {
      system_admin: "System Administrator",
      site_admin: "Site Administrator",
      org_admin: "Organization Admin",
      division_reports: "Division Reports",
      financial_admin: "Financial Admin",
      all_registrations: "All Registrations",
      communications: "Communications",
      all_races: "All Races",
      device: "Device",
      registration_admin: "Registration Form Admin",
      registration_finance: "Registration Form finance",
      registration_readonly: "Registration Form Read-only",
      report_edit_view: "Edit and View Report",
      report_view: "View Report",
      race_admin: "Race Administrator",
      technical_delegate: "Technical Delegate",
      race_timer: "Race Timer",
      race_announcer: "Race Announcer",
      race_photographer: "Race Photographer",
      private_results_viewer: "Private Results Viewer",
      depot_admin: "Shipping Depot Admin",
      depot_user: "Shipping Depot User",
      api_client_admin: "API Client Admin",
    };
    for (const type of roleTypes) expect(roleLabel(type)).toBe(expected[type]);
    expect(roleDefinition("org_admin").description).toBe("Full Permissions");
    expect(roleDefinition("division_reports").description).toBe("Membership Reports");
    expect(roleDefinition("financial_admin").description).toBe("Merchant Account Transactions");
  });

  it("gives the scopes the spec names", () => {
    expect([...roleDefinition("org_admin").scopes].sort()).toEqual([...allScopes].sort());
    expect(roleDefinition("all_registrations").scopes).toEqual(["registrations"]);
    expect([...roleDefinition("all_races").scopes].sort()).toEqual(["pointsseries", "races", "timingdevices"]);
    expect(roleDefinition("system_admin").scopes).toHaveLength(adminAreas.length);
    expect(roleDefinition("system_admin").scopes).toContain("timingdevices");
    expect(roleDefinition("system_admin").scopes).not.toContain("apps");
  });

  it("binds registration, race and depot roles to one object by level", () => {
    const levels = Object.fromEntries(roleDefinitions.map((d) => [d.type, d.level]));
    expect(levels.registration_admin).toBe("registration");
    expect(levels.report_view).toBe("registration");
    expect(levels.private_results_viewer).toBe("race");
    expect(levels.depot_user).toBe("depot");
    expect(levels.org_admin).toBe("club");
    expect(levels.site_admin).toBe("site");
    expect(levels.system_admin).toBe("system");
    expect(levels.api_client_admin).toBe("app");
  });

  it("recognises role types and nothing else", () => {
    expect(isRoleType("race_timer")).toBe(true);
    expect(isRoleType("Race Timer")).toBe(false);
    expect(isRoleType("superuser")).toBe(false);
  });
});

describe("roleHomePage", () => {
  it("sends each role to the page of section 2", () => {
    expect(roleHomePage(grant("system_admin")).href).toBe("/_admin/clubs");
    expect(roleHomePage(grant("org_admin", { clubId: "c1" })).href).toBe("/club/c1/overview");
    expect(roleHomePage(grant("division_reports", { clubId: "d1" })).href).toBe("/org/d1/home");
    expect(roleHomePage(grant("all_registrations", { clubId: "c1" })).href).toBe("/club/registrations");
    expect(roleHomePage(grant("all_races", { clubId: "c1" })).href).toBe("/club/races");
    expect(roleHomePage(grant("site_admin", { siteId: "s1" })).href).toBe("/site/s1/settings");
    expect(roleHomePage(grant("registration_admin", { scope: "r1" })).href).toBe("/registration/r1/admin");
    expect(roleHomePage(grant("race_admin", { scope: "x1" })).href).toBe("/race/x1/admin");
    expect(roleHomePage(grant("depot_admin", { scope: "d9" })).href).toBe("/shipments/d9");
    expect(roleHomePage(grant("depot_user", { scope: "d9" })).href).toBe("/shipments/d9");
  });

  it("sends the other registration and race roles to the overview of their object", () => {
    for (const type of ["registration_finance", "registration_readonly", "report_edit_view", "report_view"] as const) {
      expect(roleHomePage(grant(type, { scope: "r1" })).href).toBe("/registration/r1/overview");
    }
    for (const type of ["technical_delegate", "race_timer", "race_announcer", "race_photographer", "private_results_viewer"] as const) {
      expect(roleHomePage(grant(type, { scope: "x1" })).href).toBe("/race/x1/overview");
    }
  });

  it("picks a page for roles the spec gives none", () => {
    expect(roleHomePage(grant("financial_admin", { clubId: "c1" })).href).toBe("/club/c1/overview");
    expect(roleHomePage(grant("communications", { clubId: "c1" })).href).toBe("/club/c1/overview");
    expect(roleHomePage(grant("device", { clubId: "c1" })).href).toBe("/club/races");
    expect(roleHomePage(grant("api_client_admin"))).toEqual(fallbackRolePage);
  });

  it("gives every role a title and falls back when the bound id is missing", () => {
    for (const type of roleTypes) expect(roleHomePage(grant(type, { clubId: "c", siteId: "s", scope: "x" })).title).not.toBe("");
    expect(roleHomePage(grant("race_timer"))).toEqual(fallbackRolePage);
    expect(roleHomePage(grant("org_admin"))).toEqual(fallbackRolePage);
    expect(roleHomePage(grant("site_admin", { clubId: "c1" }))).toEqual(fallbackRolePage);
  });

  it("encodes ids into one path segment", () => {
    expect(roleHomePage(grant("race_timer", { scope: "a/b c" })).href).toBe("/race/a%2Fb%20c/overview");
  });
});

describe("roleAdminPage", () => {
  it("gives the admin page beside an overview, and null for roles without one", () => {
    expect(roleAdminPage(grant("org_admin", { clubId: "c1" }))?.href).toBe("/club/c1/admin");
    expect(roleAdminPage(grant("race_admin", { scope: "x1" }))?.href).toBe("/race/x1/admin");
    expect(roleAdminPage(grant("registration_admin", { scope: "r1" }))?.href).toBe("/registration/r1/admin");
    expect(roleAdminPage(grant("race_timer", { scope: "x1" }))).toBeNull();
    expect(roleAdminPage(grant("org_admin"))).toBeNull();
  });
});
