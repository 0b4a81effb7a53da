import { describe, expect, it } from "vitest";
import { adminAreas } from "./admin-areas";
import { allScopes, intersectScopes, isScope, missingScopes, scopeForArea, type ScopeGrant } from "./scopes";

const any = (scope: ScopeGrant["scope"]): ScopeGrant => ({ scope, anyItem: true, items: [] });
const only = (scope: ScopeGrant["scope"], ...items: string[]): ScopeGrant => ({ scope, anyItem: false, items });

describe("scope list", () => {
  it("holds the scope areas of the spec once each", () => {
    for (const scope of ["registrations", "races", "timingdevices", "pointsseries", "reports", "transactions", "communications", "apps"]) {
      expect(isScope(scope)).toBe(true);
    }
    expect(new Set(allScopes).size).toBe(allScopes.length);
    expect(allScopes).toHaveLength(25);
    expect(isScope("devices")).toBe(false);
    expect(isScope("")).toBe(false);
  });

  it("maps every admin area to a known scope, devices to timingdevices", () => {
    expect(scopeForArea("devices")).toBe("timingdevices");
    expect(scopeForArea("races")).toBe("races");
    expect(scopeForArea("apps")).toBe("apps");
    for (const area of adminAreas) expect(isScope(scopeForArea(area.key))).toBe(true);
  });
});

describe("intersectScopes", () => {
  it("any ∩ any is any", () => {
    expect(intersectScopes([any("races")], [any("races")])).toEqual([any("races")]);
  });

  it("any ∩ items is the items, whichever side is limited", () => {
    expect(intersectScopes([any("races")], [only("races", "r1", "r2")])).toEqual([only("races", "r1", "r2")]);
    expect(intersectScopes([only("races", "r1")], [any("races")])).toEqual([only("races", "r1")]);
  });

  it("items ∩ items is the common items, and an empty result is dropped", () => {
    expect(intersectScopes([only("races", "r1", "r2", "r3")], [only("races", "r3", "r2", "r9")])).toEqual([only("races", "r2", "r3")]);
    expect(intersectScopes([only("races", "r1")], [only("races", "r2")])).toEqual([]);
  });

  it("drops scopes only one side has and keeps the order of the first list", () => {
    const a = [any("users"), only("carts", "c1"), any("races")];
    const b = [any("races"), any("carts"), any("apps")];
    expect(intersectScopes(a, b)).toEqual([only("carts", "c1"), any("races")]);
  });

  it("merges several grants of one scope before intersecting", () => {
    const a = [only("races", "r1"), only("races", "r2")];
    expect(intersectScopes(a, [only("races", "r2", "r1")])).toEqual([only("races", "r1", "r2")]);
    expect(intersectScopes([only("races", "r1"), any("races")], [any("races")])).toEqual([any("races")]);
  });

  it("is empty when either side is empty", () => {
    expect(intersectScopes([], [any("races")])).toEqual([]);
    expect(intersectScopes([any("races")], [])).toEqual([]);
  });
});

describe("missingScopes", () => {
  it("reports required scopes with no grant, in order and once", () => {
    expect(missingScopes(["races", "users", "races", "apps"], [any("users")])).toEqual(["races", "apps"]);
  });

  it("is empty when an any-item grant covers every required scope", () => {
    expect(missingScopes(["races", "users"], [any("races"), any("users")], "x")).toEqual([]);
  });

  it("lets an item-limited grant cover only its items", () => {
    const granted = [only("registrations", "reg1")];
    expect(missingScopes(["registrations"], granted, "reg1")).toEqual([]);
    expect(missingScopes(["registrations"], granted, "reg2")).toEqual(["registrations"]);
  });

  it("does not let an item-limited grant cover a request about no item", () => {
    expect(missingScopes(["registrations"], [only("registrations", "reg1")])).toEqual(["registrations"]);
    expect(missingScopes(["registrations"], [any("registrations")])).toEqual([]);
  });
});
