import { webcrypto } from "node:crypto";
import { describe, expect, it } from "vitest";
import { manualEntrySchema } from "../../schema/wire/manual-entry";
import { randomId } from "./keypad-queue";

describe("keypad entry keys", () => {
  it("are v4 UUIDs where crypto.randomUUID is missing (a serverbox keypad over plain http), and the timing API takes them", () => {
    // An insecure context: getRandomValues only.
    const insecure = { getRandomValues: <T extends ArrayBufferView | null>(array: T) => webcrypto.getRandomValues(array as Uint8Array) as unknown as T };
    const keys = Array.from({ length: 1_000 }, () => randomId(insecure));
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys).size).toBe(keys.length);
    const entry = manualEntrySchema.safeParse({ kind: "status", key: keys[0], bib: 7, status: "dns" });
    expect(entry.success).toBe(true);
  });

  it("use crypto.randomUUID where the context has it", () => {
    expect(randomId({ getRandomValues: () => new Uint8Array(16) as never, randomUUID: () => "from-random-uuid" })).toBe("from-random-uuid");
  });
});
