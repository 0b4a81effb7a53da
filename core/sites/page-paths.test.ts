import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { normalisePagePath, PAGE_PATH_MESSAGES, pagePathProblem, RESERVED_SEGMENTS } from "./page-paths";

describe("a page's address", () => {
  it("may be a lowercase path of the club's own", () => {
    expect(pagePathProblem("/about")).toBeNull();
    expect(pagePathProblem("/about/history")).toBeNull();
    expect(pagePathProblem("/2026-season")).toBeNull();
  });
  it("is refused where the product has its own pages, with the segment named", () => {
    expect(pagePathProblem("/events")).toBe(PAGE_PATH_MESSAGES.reserved("events"));
    expect(pagePathProblem("/login/x")).toBe(PAGE_PATH_MESSAGES.reserved("login"));
    expect(pagePathProblem("/_admin")).toBe(PAGE_PATH_MESSAGES.reserved("_admin"));
    expect(pagePathProblem("/")).toBe(PAGE_PATH_MESSAGES.home);
  });
  it("is refused when not URL-safe", () => {
    for (const bad of ["about", "/About", "/a b", "/a//b", "/../x", "/a/", "/é", "/a?x=1"]) expect(pagePathProblem(bad)).toBe(PAGE_PATH_MESSAGES.shape);
  });
  it("never accepts a path under a reserved segment", () => {
    const segment = fc.constantFrom(...RESERVED_SEGMENTS);
    const rest = fc.stringMatching(/^(\/[a-z0-9]{1,8}){0,3}$/);
    fc.assert(
      fc.property(segment, rest, (s, r) => pagePathProblem(`/${s}${r}`) !== null),
      fcParams(),
    );
  });
  it("normalises what was typed", () => {
    expect(normalisePagePath(" About/ ")).toBe("/about");
    expect(normalisePagePath("/x")).toBe("/x");
  });
});
