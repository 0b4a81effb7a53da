import { describe, expect, it } from "vitest";
import { uniqueConstraintOf } from "./errors";

describe("a broken unique index in D1's words", () => {
  it("is read from a batch's error and from drizzle's wrapper around a single statement's", () => {
    const d1 = new Error("D1_ERROR: UNIQUE constraint failed: site_domains.hostname: SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_UNIQUE)");
    expect(uniqueConstraintOf(d1)).toBe("site_domains.hostname");
    expect(uniqueConstraintOf(new Error("Failed query: insert into site_domains …", { cause: d1 }))).toBe("site_domains.hostname");
    expect(uniqueConstraintOf(new Error("Failed query", { cause: new Error("NOT NULL constraint failed: x.y") }))).toBeNull();
    expect(uniqueConstraintOf("UNIQUE constraint failed: a.b, a.c")).toBe("a.b, a.c");
    expect(uniqueConstraintOf(null)).toBeNull();
  });
});
