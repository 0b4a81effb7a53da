import { sql } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { selectByName } from "./insert-select";
import { newsletterDeliveries } from "./newsletters";
import { sites } from "./tables";

const render = (query: ReturnType<typeof selectByName>) => new SQLiteSyncDialect().sqlToQuery(query);

describe("selectByName", () => {
  it("puts each named value at its column's place in the table, whatever order it is named in", () => {
    const query = render(
      selectByName(sites, { version: 0, hostname: "a.localhost", id: "s1", config: { name: "A" }, createdAt: 5, fieldMtimes: {} }, sql`WHERE 1`),
    );
    expect(query.sql).toBe("SELECT ?, ?, ?, ?, ?, ? WHERE 1");
    // id, created_at, field_mtimes, hostname, config, version: JSON columns mapped as drizzle maps them.
    expect(query.params).toEqual(["s1", 5, "{}", "a.localhost", '{"name":"A"}', 0]);
  });

  it("fills a column not named with its default, and keeps SQL values as they are", () => {
    const query = render(selectByName(newsletterDeliveries, { id: sql`value ->> 0`, newsletterId: "n1", email: sql`value ->> 1`, updatedAt: 9 }));
    expect(query.sql).toBe("SELECT value ->> 0, ?, value ->> 1, ?, ?, ? ");
    expect(query.params).toEqual(["n1", "queued", 0, 9]);
  });

  it("refuses a required column with no value and no default, and a key that is no column", () => {
    expect(() => selectByName(newsletterDeliveries, { id: "d1", newsletterId: "n1", updatedAt: 1 })).toThrow("Column email has no value and no default");
    expect(() => selectByName(sites, { id: "s1", nope: 1 } as never)).toThrow("No column nope");
  });
});
