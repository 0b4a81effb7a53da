import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUserWithPassword, db } from "./auth-fixtures";
import { createSiteWithRace } from "./fixtures";
import { createApp, issueToken, apiCall } from "./oauth-fixtures";
import { openSocket } from "./socket-fixtures";

const HOST = "localhost";

const call = (token: string, method: string, path: string, body?: unknown) => apiCall(HOST, token, method, path, body);

async function setup(tag: string) {
  const { club } = await createSiteWithRace(db(), { hostname: `${tag}.localhost`, siteName: tag, raceName: tag });
  const user = await createUserWithPassword(`${tag}@example.com`, null, [{ type: "org_admin", clubId: club.id }]);
  const appId = await createApp({ scopes: "registrations races" });
  const token = await issueToken(user.id, appId, HOST, "registrations races");
  const created = await call(token, "PUT", "/data-api/Registration/", { club: club.id, name: "Live form" });
  const registrationId = created.headers.get("Location")!.split("/").pop()!;
  return { club, user, appId, token, registrationId };
}

const hub = () => env.DATA_HUB.get(env.DATA_HUB.idFromName(HOST));

describe("data socket", () => {
  it("says hello after api-auth, answers pings, and delivers only the changed fields of a subscribed entity", async () => {
    const { token, registrationId } = await setup("live");
    const live = await openSocket("inst-1");
    const hello = await live.auth(token);
    expect(hello.instance).toBe("inst-1");
    live.socket.send(JSON.stringify({ type: "ping" }));
    await live.next("pong");
    const subscribed = await call(token, "POST", `/data-api/Registration/${registrationId}/subscribe?conn=${hello.conn}`);
    expect(await subscribed.json()).toEqual({ channel: `Registration/${registrationId}` });
    expect(await live.next("subscription")).toMatchObject({ channel: `Registration/${registrationId}`, classname: "Registration", uuid: registrationId });
    await call(token, "POST", `/data-api/Registration/${registrationId}/`, { name: "Renamed live", gst_rate: 5 });
    const data = await live.next("data");
    expect(data).toMatchObject({ classname: "Registration", uuid: registrationId, fields: { name: "Renamed live", gst_rate: 5 } });
    expect(Object.keys(data.fields).sort()).toEqual(["gst_rate", "name"]);
    expect(Object.keys(data.field_mtimes).sort()).toEqual(["gst_rate", "name"]);
    await call(token, "DELETE", `/data-api/Registration/${registrationId}/`);
    expect(await live.next("data")).toMatchObject({ uuid: registrationId, deleted: true, fields: {} });
    live.socket.close(1000);
  });

  it("refuses a bad token with an error and close 4001", async () => {
    const socket = await openSocket();
    socket.socket.send(JSON.stringify({ type: "api-auth", token: "not-a-token" }));
    expect(await socket.next("error")).toMatchObject({ message: "The access token is invalid" });
    expect(await socket.waitClosed()).toBe(4001);
  });

  it("closes a socket that never authenticates once 10 seconds have passed", async () => {
    const socket = await openSocket("silent");
    // Age the socket past its deadline instead of waiting 10 real seconds.
    await runInDurableObject(hub(), (_instance, state) => {
      for (const ws of state.getWebSockets()) {
        const attachment = ws.deserializeAttachment() as { instance: string; connectedAt: number };
        if (attachment.instance === "silent") ws.serializeAttachment({ ...attachment, connectedAt: Date.now() - 10_001 });
      }
    });
    await runDurableObjectAlarm(hub());
    expect(await socket.next("error")).toMatchObject({ message: "Authenticate with api-auth within 10 seconds" });
    expect(await socket.waitClosed()).toBe(4001);
  });

  it("refuses a subscription to an entity the token cannot read, or to another user's socket", async () => {
    const owner = await setup("subowner");
    const stranger = await setup("substranger");
    const socket = await openSocket();
    const hello = await socket.auth(stranger.token);
    const denied = await call(stranger.token, "POST", `/data-api/Registration/${owner.registrationId}/subscribe?conn=${hello.conn}`);
    expect(denied.status).toBe(404);
    const hijack = await call(owner.token, "POST", `/data-api/Registration/${owner.registrationId}/subscribe?conn=${hello.conn}`);
    expect(hijack.status).toBe(404);
    expect(await hijack.json()).toMatchObject({ message: "No such connection for this token" });
    const racesOnly = await issueToken(stranger.user.id, stranger.appId, HOST, "races");
    const noScope = await call(racesOnly, "POST", `/data-api/Registration/${stranger.registrationId}/subscribe?conn=${hello.conn}`);
    expect(noScope.status).toBe(403);
    socket.socket.close(1000);
  });

  it("delivers nothing to a socket whose own token lacks the scope", async () => {
    const { user, appId, token, registrationId } = await setup("scopeless");
    const racesOnly = await issueToken(user.id, appId, HOST, "races");
    const narrow = await openSocket("narrow");
    const narrowHello = await narrow.auth(racesOnly);
    const full = await openSocket("full");
    const fullHello = await full.auth(token);
    for (const conn of [narrowHello.conn, fullHello.conn]) {
      expect((await call(token, "POST", `/data-api/Registration/${registrationId}/subscribe?conn=${conn}`)).status).toBe(200);
    }
    await call(token, "POST", `/data-api/Registration/${registrationId}/`, { name: "Only for the scoped" });
    expect(await full.next("data")).toMatchObject({ fields: { name: "Only for the scoped" } });
    expect(narrow.frames.filter((f) => f.type === "data")).toEqual([]);
    narrow.socket.close(1000);
    full.socket.close(1000);
  });
});

describe("data socket: unsubscribe", () => {
  it("stops delivery after DELETE …/subscribe", async () => {
    const { token, registrationId } = await setup("unsub");
    const live = await openSocket("unsub");
    const hello = await live.auth(token);
    await call(token, "POST", `/data-api/Registration/${registrationId}/subscribe?conn=${hello.conn}`);
    expect((await call(token, "DELETE", `/data-api/Registration/${registrationId}/subscribe?conn=${hello.conn}`)).status).toBe(204);
    await call(token, "POST", `/data-api/Registration/${registrationId}/`, { name: "Unheard" });
    // Follow again and change once more: the first frame to arrive must be the second change.
    await call(token, "POST", `/data-api/Registration/${registrationId}/subscribe?conn=${hello.conn}`);
    await call(token, "POST", `/data-api/Registration/${registrationId}/`, { name: "Heard" });
    expect(await live.next("data")).toMatchObject({ fields: { name: "Heard" } });
    live.socket.close(1000);
  });
});
