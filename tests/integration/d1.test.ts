import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { applyFieldChanges, initialMtimes } from "../../core/entity/field-mtimes";
import { clubs, openDb, roles, sites, users } from "../../schema/d1";

describe("D1 through the real migrations", () => {
  it("creates every foundation table", async () => {
    const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all<{ name: string }>();
    const names = results.map((r) => r.name);
    for (const table of ["whitelabel_sites", "clubs", "users", "roles", "races", "captured_mail"]) expect(names).toContain(table);
  });

  it("stores per-field modification times and updates only the fields that changed", async () => {
    const db = openDb(env.DB);
    const id = crypto.randomUUID();
    const created = { name: "Lakeside Ski Club", sport: "Cross Country Skiing", country: "CA" };
    await db.insert(clubs).values({ id, ...created, fieldMtimes: initialMtimes(created, 1_000) });
    const stored = await db.query.clubs.findFirst({ where: eq(clubs.id, id) });
    expect(stored?.fieldMtimes).toEqual({ name: 1_000, sport: 1_000, country: 1_000 });

    const { changed, mtimes } = applyFieldChanges(
      { name: stored!.name, sport: stored!.sport, country: stored!.country },
      stored!.fieldMtimes,
      { name: "Lakeside Nordic", country: "CA" },
      2_000,
    );
    await db
      .update(clubs)
      .set({ ...changed, fieldMtimes: mtimes })
      .where(eq(clubs.id, id));
    const updated = await db.query.clubs.findFirst({ where: eq(clubs.id, id) });
    expect(updated?.name).toBe("Lakeside Nordic");
    expect(updated?.fieldMtimes).toEqual({ name: 2_000, sport: 1_000, country: 1_000 });
  });

  it("refuses a second site on the same hostname", async () => {
    const db = openDb(env.DB);
    await db.insert(sites).values({ id: crypto.randomUUID(), hostname: "twice.localhost", config: { name: "First" } });
    await expect(db.insert(sites).values({ id: crypto.randomUUID(), hostname: "twice.localhost", config: { name: "Second" } })).rejects.toThrow();
  });

  it("removes a user's roles with the user", async () => {
    const db = openDb(env.DB);
    const userId = crypto.randomUUID();
    await db.insert(users).values({ id: userId, email: "gone@example.com", name: "Gone" });
    await db.insert(roles).values({ id: crypto.randomUUID(), userId, type: "org_admin" });
    await env.DB.exec("PRAGMA foreign_keys = ON");
    await db.delete(users).where(eq(users.id, userId));
    expect(await db.select().from(roles).where(eq(roles.userId, userId))).toEqual([]);
  });
});
