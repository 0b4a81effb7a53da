import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { entityChanges, registrations } from "../../schema/d1";
import { Club, Registration } from "../../schema/entities/classes";
import { changeFields, getEntity, updateEntity } from "../../workers/data-api/entity-store";
import { changedHistory, historyOf } from "../../workers/services/entity-history";
import { db, createUserWithPassword } from "./auth-fixtures";
import { createSiteWithRace } from "./fixtures";
import { createApp, issueToken, apiCall } from "./oauth-fixtures";

const HOST = "localhost";

const call = (token: string, method: string, path: string, body?: unknown) => apiCall(HOST, token, method, path, body);

async function clubAdmin(tag: string) {
  const { club } = await createSiteWithRace(db(), { hostname: `${tag}.localhost`, siteName: tag, raceName: `${tag} race` });
  const user = await createUserWithPassword(`${tag}@example.com`, null, [{ type: "org_admin", clubId: club.id }]);
  const appId = await createApp({ scopes: "registrations clubs races" });
  return { club, user, appId, token: await issueToken(user.id, appId, HOST, "registrations clubs races") };
}

async function historyRows(classname: string, id: string) {
  return db()
    .select()
    .from(entityChanges)
    .where(and(eq(entityChanges.classname, classname), eq(entityChanges.entityId, id)));
}

describe("entity history: every write through the service leaves who, when, which field, old and new", () => {
  it("records a create with its first values and a change per field, naming the user and the app", async () => {
    const { token, club, user, appId } = await clubAdmin("hist-a");
    const created = await call(token, "PUT", "/data-api/Registration/", { club: club.id, name: "Spring 10K", gst_rate: 13 });
    expect(created.status).toBe(201);
    const id = (await created.json<{ uuid: string }>()).uuid;
    const changed = await call(token, "POST", `/data-api/Registration/${id}`, { name: "Spring 10 km", gst_rate: 5 });
    expect(changed.status).toBe(200);
    const history = await historyOf(db(), Registration, id);
    const byField = Object.fromEntries(history.filter((h) => h.kind === "changed").map((h) => [h.field, h]));
    expect(byField.name).toMatchObject({ oldValue: "Spring 10K", newValue: "Spring 10 km", userId: user.id, appId, userName: expect.any(String) });
    expect(byField.gst_rate).toMatchObject({ oldValue: 13, newValue: 5 });
    const first = history.find((h) => h.kind === "created")!;
    expect(first.newValue).toMatchObject({ name: "Spring 10K", gst_rate: 13, club: club.id });
  });

  it("writes no history for a refused or stale write, and nothing for a write that changed nothing", async () => {
    const { token, club } = await clubAdmin("hist-b");
    const id = (await (await call(token, "PUT", "/data-api/Registration/", { club: club.id, name: "Loppet" })).json<{ uuid: string }>()).uuid;
    const before = await historyRows("Registration", id);
    expect((await call(token, "POST", `/data-api/Registration/${id}`, { gst_rate: 140 })).status).toBe(400);
    expect((await call(token, "POST", `/data-api/Registration/${id}`, { name: "Loppet 2", field_mtimes: { name: 1 } })).status).toBe(409);
    // Resending what is stored, from however old a read, is a no-op (a double click), not a conflict.
    expect((await call(token, "POST", `/data-api/Registration/${id}`, { name: "Loppet", field_mtimes: { name: 1 } })).status).toBe(200);
    expect((await call(token, "POST", `/data-api/Registration/${id}`, { name: "Loppet" })).status).toBe(200);
    expect(await historyRows("Registration", id)).toHaveLength(before.length);
  });

  it("records a double click's change once, even when both writes carry the same field times", async () => {
    const { token, club, user } = await clubAdmin("hist-d");
    const id = (await (await call(token, "PUT", "/data-api/Registration/", { club: club.id, name: "Night Relay" })).json<{ uuid: string }>()).uuid;
    const author = { userId: user.id, appId: null, at: 1_900_000_000_000 };
    const read = (await getEntity(db(), Registration, id))!;
    const history = (before: Record<string, unknown>, changed: Record<string, unknown>, version: string) =>
      changedHistory(db(), Registration, id, before, changed, version, author);
    const won = await changeFields(db(), Registration, id, { name: "Night Relay 2" }, undefined, author.at, history);
    expect(won).toMatchObject({ ok: true, changed: { name: "Night Relay 2" } });
    // The second click read the row before the first landed: its update, with the same values and field times, loses.
    const lost = await updateEntity(db(), Registration, id, { name: "Night Relay 2" }, read.version, won!.ok ? won!.mtimes : {}, [
      ...history(read.row, { name: "Night Relay 2" }, read.version),
    ]);
    expect(lost).toBe(false);
    const changes = (await historyOf(db(), Registration, id)).filter((h) => h.kind === "changed");
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ field: "name", oldValue: "Night Relay", newValue: "Night Relay 2" });
  });

  it("refuses to delete a club its forms still use, naming them, and keeps a deleted form's last values", async () => {
    const { token, club } = await clubAdmin("hist-c");
    const id = (await (await call(token, "PUT", "/data-api/Registration/", { club: club.id, name: "Relay" })).json<{ uuid: string }>()).uuid;
    const refused = await call(token, "DELETE", `/data-api/Club/${club.id}`);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: "conflict", message: expect.stringMatching(/^This Club is still used by .*1 Registration\b/) });
    expect(await historyRows("Club", club.id)).toHaveLength(0);
    expect((await call(token, "DELETE", `/data-api/Registration/${id}`)).status).toBe(204);
    expect(await db().select().from(registrations).where(eq(registrations.id, id))).toHaveLength(0);
    const [gone] = await historyOf(db(), Registration, id);
    expect(gone).toMatchObject({ kind: "deleted", field: "*", oldValue: expect.objectContaining({ name: "Relay", club: club.id }) });
    expect(await historyOf(db(), Club, club.id)).toEqual([]);
  });
});
