import { describe, expect, it } from "vitest";
import { applyFieldChanges, initialMtimes, lastModified } from "./field-mtimes";

describe("per-field modification times", () => {
  it("stamps every field of a new row", () => {
    expect(initialMtimes({ name: "Demo", sport: undefined, logo: null }, 1000)).toEqual({ name: 1000, logo: 1000 });
  });

  it("writes only fields whose value changed and stamps only those", () => {
    const row = { name: "Old", email: "a@b.c", tags: ["x"] };
    const result = applyFieldChanges(row, { name: 10, email: 10, tags: 10 }, { name: "New", email: "a@b.c", tags: ["x"] }, 50);
    expect(result.changed).toEqual({ name: "New" });
    expect(result.mtimes).toEqual({ name: 50, email: 10, tags: 10 });
    expect(result.stale).toEqual([]);
  });

  it("refuses a write based on an older read of that field", () => {
    const row = { name: "Theirs", email: "a@b.c" };
    const result = applyFieldChanges(row, { name: 30, email: 10 }, { name: "Mine", email: "me@b.c" }, 40, { name: 20, email: 10 });
    expect(result.stale).toEqual(["name"]);
    expect(result.changed).toEqual({ email: "me@b.c" });
    expect(result.mtimes.name).toBe(30);
    expect(result.mtimes.email).toBe(40);
  });

  it("takes a resent write of what is already stored as a no-op, not a conflict, however old its read", () => {
    const row = { name: "Mine" };
    const result = applyFieldChanges(row, { name: 30 }, { name: "Mine" }, 40, { name: 20 });
    expect(result).toEqual({ changed: {}, mtimes: { name: 30 }, stale: [] });
  });

  it("keeps times moving forward when the clock has not advanced", () => {
    const result = applyFieldChanges({ n: 1 }, { n: 100 }, { n: 2 }, 100);
    expect(result.mtimes.n).toBe(101);
  });

  it("reports the newest field time as the row's last modification", () => {
    expect(lastModified({ a: 3, b: 9, c: 1 })).toBe(9);
    expect(lastModified({})).toBe(0);
  });
});
