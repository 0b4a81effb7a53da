import { describe, expect, it } from "vitest";
import type { RoleGrant } from "./roles";
import { formatScopeText, parseScopeText, scopeNames, scopesOfRoles } from "./scope-text";
import { intersectScopes } from "./scopes";

const role = (type: RoleGrant["type"], scope: string | null = null): RoleGrant => ({ id: type, type, clubId: "club", siteId: null, scope, config: {} });

describe("scope text", () => {
  it("parses areas, item limits and unknown words", () => {
    expect(parseScopeText("registrations races:r1,r2 nonsense")).toEqual({
      grants: [
        { scope: "registrations", anyItem: true, items: [] },
        { scope: "races", anyItem: false, items: ["r1", "r2"] },
      ],
      unknown: ["nonsense"],
    });
    expect(parseScopeText("")).toEqual({ grants: [], unknown: [] });
    expect(parseScopeText(null).grants).toEqual([]);
  });

  it("round-trips through its text form", () => {
    const text = "registrations races:r1,r2";
    expect(formatScopeText(parseScopeText(text).grants)).toBe(text);
  });

  it("lists each area once", () => {
    expect(scopeNames(parseScopeText("races:a races:b registrations").grants)).toEqual(["registrations", "races"]);
  });
});

describe("scopes of roles", () => {
  it("gives club roles their whole areas and scoped roles their one object", () => {
    const grants = scopesOfRoles([role("all_races"), role("registration_admin", "reg-1")]);
    expect(grants).toContainEqual({ scope: "races", anyItem: true, items: [] });
    expect(grants).toContainEqual({ scope: "registrations", anyItem: false, items: ["reg-1"] });
  });

  it("lets a token carry only what both the roles and the grant allow", () => {
    const userGrants = scopesOfRoles([role("registration_admin", "reg-1")]);
    const requested = parseScopeText("registrations races").grants;
    expect(intersectScopes(userGrants, requested)).toEqual([{ scope: "registrations", anyItem: false, items: ["reg-1"] }]);
  });

  it("drops a scoped role that names no object", () => {
    expect(scopesOfRoles([role("race_timer", null)])).toEqual([]);
  });
});
