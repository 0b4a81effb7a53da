/**
 * Serverboxes (issue 27, decision 0055): a box pairs itself by a code a club administrator approves on the
 * pairing page, polls for its token (once), then reports in, lists its club's races, fetches one to time it
 * offline and forwards reads through the timing API, until it is revoked.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PAIRING_MESSAGES } from "../../core/servers/pairing";
import { entityChanges, roles, serverboxAuthRequests, serverboxes } from "../../schema/d1";
import { createUserWithPassword, db, pagePost, signIn, worker } from "./auth-fixtures";
import { hostRequest } from "./fixtures";
import { createApp, issueToken } from "./oauth-fixtures";
import { createTimedRace, postReads } from "./timing-fixtures";

const PASSWORD = "serverbox-glacier-42";

async function clubWithAdmin(role = "org_admin") {
  const timed = await createTimedRace();
  const email = `box-${crypto.randomUUID().slice(0, 8)}@example.com`;
  await createUserWithPassword(email, PASSWORD, [{ type: role, clubId: timed.club.id }]);
  return { ...timed, email, cookie: await signIn("localhost", email, PASSWORD) };
}

function boxCall(path: string, init: { body?: unknown; token?: string; method?: string; raw?: string; type?: string } = {}) {
  const headers: Record<string, string> = { "Content-Type": init.type ?? "application/json" };
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  return worker.fetch(hostRequest("localhost", `/serverbox-api${path}`, { method: init.method ?? (body === undefined ? "GET" : "POST"), headers, body }));
}

async function startPairing(serial = `SB-${crypto.randomUUID().slice(0, 6)}`) {
  const response = await boxCall("/pair", { body: { serial, name: "Finish tent box", software_version: "1.4.0" } });
  expect(response.status).toBe(200);
  return (await response.json()) as {
    request_id: string;
    device_code: string;
    user_code: string;
    interval: number;
    expires_in: number;
    verification_uri_complete: string;
  };
}

const poll = async (deviceCode: string) => {
  const response = await boxCall("/token", { body: { device_code: deviceCode } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

const page = (path: string, cookie: string) => worker.fetch(hostRequest("localhost", path, { headers: { Cookie: cookie }, redirect: "manual" }));

/** The request's last poll moved back, as if the box waited its interval. */
const waitInterval = (requestId: string) => db().update(serverboxAuthRequests).set({ lastPoll: 0 }).where(eq(serverboxAuthRequests.id, requestId));

async function approve(clubId: string, requestId: string, cookie: string) {
  return pagePost("localhost", `/club/${clubId}/servers/pair`, { intent: "approve", request: requestId, club: clubId }, cookie);
}

/** A paired box: its token and id. */
async function pairedBox(setup: Awaited<ReturnType<typeof clubWithAdmin>>) {
  const started = await startPairing();
  expect((await approve(setup.club.id, started.request_id, setup.cookie)).status).toBe(302);
  const { body } = await poll(started.device_code);
  return { token: body.server_token as string, serverId: body.server_id as string };
}

describe("pairing a serverbox", () => {
  it("goes from a code on the box to a token the box receives once", async () => {
    const setup = await clubWithAdmin();
    const started = await startPairing("SB-0001");
    expect(started.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(started).toMatchObject({ interval: 5, expires_in: 600 });
    expect(started.verification_uri_complete).toContain(`/pair?code=${started.user_code}`);

    // Before anyone approves, the box is told to wait; polling again at once is too fast.
    expect((await poll(started.device_code)).body.error).toBe("authorization_pending");
    const fast = await poll(started.device_code);
    expect(fast).toMatchObject({ status: 400, body: { error: "slow_down", interval: 10 } });
    await waitInterval(started.request_id);
    expect((await poll(started.device_code)).body).toMatchObject({ error: "authorization_pending", interval: 10 });

    // The administrator types the code (any case, with or without the dash) and sees the box.
    const found = await page(`/club/${setup.club.id}/servers/pair?code=${started.user_code.toLowerCase().replace("-", " ")}`, setup.cookie);
    expect(found.status).toBe(200);
    const html = await found.text();
    expect(html).toContain("Finish tent box");
    expect(html).toContain("SB-0001");

    // Approve, clicked twice: one serverbox, one history row.
    const [first, second] = await Promise.all([
      approve(setup.club.id, started.request_id, setup.cookie),
      approve(setup.club.id, started.request_id, setup.cookie),
    ]);
    expect([first.status, second.status]).toEqual([302, 302]);
    expect(first.headers.get("Location")).toBe(`/club/${setup.club.id}/servers?saved=paired`);
    const boxes = await db().select().from(serverboxes).where(eq(serverboxes.clubId, setup.club.id));
    expect(boxes).toHaveLength(1);
    expect(boxes[0]).toMatchObject({
      name: "Finish tent box",
      serial: "SB-0001",
      softwareVersion: "1.4.0",
      subtype: "serverbox",
      isActive: true,
      tokenHash: null,
    });
    expect(await db().select().from(entityChanges).where(eq(entityChanges.entityId, boxes[0]!.id))).toHaveLength(1);

    const [request] = await db().select().from(serverboxAuthRequests).where(eq(serverboxAuthRequests.id, started.request_id));
    expect(request).toMatchObject({ serverId: boxes[0]!.id, clubId: setup.club.id, siteId: setup.site.id });
    expect(request!.userId).not.toBeNull();
    expect(request!.completed).not.toBeNull();

    // Two polls at once: one gets the token, the other is told it was handed out.
    const polls = await Promise.all([poll(started.device_code), poll(started.device_code)]);
    const delivered = polls.filter((p) => p.status === 200);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.body).toMatchObject({ token_type: "Bearer", server_id: boxes[0]!.id, club_id: setup.club.id });
    expect(String(delivered[0]!.body.server_token)).toMatch(/^sbx_/);
    expect(polls.find((p) => p.status !== 200)!.body.error).toBe("invalid_grant");
    // Only the hash is kept.
    const [stored] = await db().select().from(serverboxes).where(eq(serverboxes.id, boxes[0]!.id));
    expect(stored!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored!.tokenHash).not.toContain(String(delivered[0]!.body.server_token).split(".")[1]);

    // The code cannot be used again.
    const again = await page(`/club/${setup.club.id}/servers/pair?code=${started.user_code}`, setup.cookie);
    expect(await again.text()).toContain(PAIRING_MESSAGES.used.replace(/'/g, "&#x27;").slice(0, 30));
  });

  it("tells the box when its code expired or the pairing was cancelled, and the page says so too", async () => {
    const setup = await clubWithAdmin();
    const expired = await startPairing();
    await db()
      .update(serverboxAuthRequests)
      .set({ expires: Date.now() - 1 })
      .where(eq(serverboxAuthRequests.id, expired.request_id));
    expect(await poll(expired.device_code)).toMatchObject({ status: 400, body: { error: "expired_token" } });
    const expiredPage = await page(`/club/${setup.club.id}/servers/pair?code=${expired.user_code}`, setup.cookie);
    expect(await expiredPage.text()).toContain("This code has expired");
    const late = await approve(setup.club.id, expired.request_id, setup.cookie);
    expect(late.status).toBe(400);

    const cancelled = await startPairing();
    const cancel = await pagePost(
      "localhost",
      `/club/${setup.club.id}/servers/pair`,
      { intent: "cancel", request: cancelled.request_id, club: setup.club.id },
      setup.cookie,
    );
    expect(cancel.headers.get("Location")).toBe(`/club/${setup.club.id}/servers?saved=pairingCancelled`);
    expect(await poll(cancelled.device_code)).toMatchObject({ status: 400, body: { error: "access_denied" } });
    expect((await approve(setup.club.id, cancelled.request_id, setup.cookie)).status).toBe(400);
    expect(await db().select().from(serverboxes).where(eq(serverboxes.clubId, setup.club.id))).toHaveLength(0);
  });

  it("says plainly when a code is wrong, and stops guessing after 20 wrong codes", async () => {
    const setup = await clubWithAdmin();
    const malformed = await page(`/club/${setup.club.id}/servers/pair?code=hello`, setup.cookie);
    expect(await malformed.text()).toContain("A code is 8 letters");
    const unknown = await page(`/club/${setup.club.id}/servers/pair?code=ZZZZ-ZZZZ`, setup.cookie);
    expect(await unknown.text()).toContain("No serverbox is waiting with this code");
    for (let i = 0; i < 20; i++) await page(`/club/${setup.club.id}/servers/pair?code=ZZZZ-ZZZ${i % 2 ? "X" : "W"}`, setup.cookie);
    const limited = await page(`/club/${setup.club.id}/servers/pair?code=ZZZZ-ZZZZ`, setup.cookie);
    expect(await limited.text()).toContain("Too many wrong codes");
  });

  it("refuses another club's administrator, a role without servers, and a stranger", async () => {
    const setup = await clubWithAdmin();
    const other = await clubWithAdmin();
    const started = await startPairing();
    // Another club's admin may not approve for this club, nor open its pages (it is not theirs to know: 404).
    expect((await approve(setup.club.id, started.request_id, other.cookie)).status).toBe(404);
    expect((await page(`/club/${setup.club.id}/servers`, other.cookie)).status).toBe(404);
    // Approving for their own club names a club this admin may not choose: refused on the form.
    const foreign = await pagePost(
      "localhost",
      `/club/${other.club.id}/servers/pair`,
      { intent: "approve", request: started.request_id, club: setup.club.id },
      other.cookie,
    );
    expect(foreign.status).toBe(403);
    const racer = await clubWithAdmin("all_registrations");
    expect((await page(`/club/${racer.club.id}/servers`, racer.cookie)).status).toBe(403);
    expect((await page(`/club/${setup.club.id}/servers`, "")).status).toBe(302);
    expect(await poll(started.device_code)).toMatchObject({ body: { error: "authorization_pending" } });
    // The short address takes an administrator to their club's pairing page with the code.
    const short = await page(`/pair?code=${started.user_code}`, setup.cookie);
    expect(short.headers.get("Location")).toBe(`/club/${setup.club.id}/servers/pair?code=${started.user_code}`);
    expect((await page(`/pair?code=${started.user_code}`, racer.cookie)).status).toBe(403);
  });

  it("answers garbage with a 4xx", async () => {
    expect((await boxCall("/pair", { raw: "{not json" })).status).toBe(400);
    expect((await boxCall("/pair", { raw: "serial=1", type: "application/x-www-form-urlencoded" })).status).toBe(415);
    expect((await boxCall("/pair", { body: { serial: "", name: "x" } })).status).toBe(400);
    expect((await boxCall("/pair", { body: { serial: "a", name: "b", admin: true } })).status).toBe(400);
    expect((await boxCall("/pair", { body: [1, 2] })).status).toBe(400);
    expect((await boxCall("/pair", { method: "GET" })).status).toBe(405);
    expect(await poll("no-dot")).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(await poll(`${crypto.randomUUID()}.guess`)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await boxCall("/token", { body: { device_code: 7 } })).status).toBe(400);
    expect((await boxCall("/heartbeat", { body: {}, token: "sbx_nothing" })).status).toBe(401);
    expect((await boxCall("/races")).status).toBe(401);
    expect((await boxCall("/nowhere")).status).toBe(404);
    const setup = await clubWithAdmin();
    const form = await pagePost("localhost", `/club/${setup.club.id}/servers/pair`, { intent: "approve", request: "nope", club: "x" }, setup.cookie);
    expect(form.status).toBe(400);
    const unknownIntent = await pagePost("localhost", `/club/${setup.club.id}/servers`, { intent: "explode" }, setup.cookie);
    expect(unknownIntent.status).toBe(400);
  });
});

describe("a paired serverbox", () => {
  it("reports in, lists its club's races and fetches one to time offline, without secrets", async () => {
    const setup = await clubWithAdmin();
    const box = await pairedBox(setup);
    const beat = await boxCall("/heartbeat", { body: { software_version: "1.5.0" }, token: box.token });
    expect(beat.status).toBe(200);
    const [row] = await db().select().from(serverboxes).where(eq(serverboxes.id, box.serverId));
    expect(row!.softwareVersion).toBe("1.5.0");
    expect(row!.lastSeenTime).toBeGreaterThan(Date.now() - 60_000);
    const list = await page(`/club/${setup.club.id}/servers`, setup.cookie);
    const html = await list.text();
    expect(html).toContain("Finish tent box");
    expect(html).toContain("1.5.0");
    expect(html).toContain("Active");

    const races = (await (await boxCall("/races", { token: box.token })).json()) as { races: { id: string }[] };
    expect(races.races.map((r) => r.id)).toEqual([setup.race.id]);
    const detail = await boxCall(`/races/${setup.race.id}`, { token: box.token });
    expect(detail.status).toBe(200);
    const text = await detail.text();
    const pkg = JSON.parse(text) as {
      devices: { id: string; has_credential: boolean }[];
      racers: { bib: number; chips: string[] }[];
      timing_points: unknown[];
    };
    expect(pkg.devices).toEqual([expect.objectContaining({ id: setup.device.id, has_credential: true })]);
    expect(pkg.racers.map((r) => [r.bib, r.chips])).toEqual([
      [1, ["C1"]],
      [2, ["C2"]],
      [3, ["C3"]],
    ]);
    expect(pkg.timing_points).toHaveLength(2);
    // What the box's results engine reads (decision 0060): the race's settings, documents and racers' fields, and each racer's result now.
    const full = pkg as unknown as {
      racers: { status: string; time: number | null }[];
      results_setup: {
        settings: { timing_mode: string };
        documents: Record<string, { id: string; data: unknown }[]>;
        racers: { id: string; data: { bib: number } }[];
      };
    };
    expect(full.racers.map((r) => [r.status, r.time])).toEqual([
      ["notstarted", null],
      ["notstarted", null],
      ["notstarted", null],
    ]);
    expect(full.results_setup.settings.timing_mode).toBe("p2p");
    expect(Object.keys(full.results_setup.documents).sort()).toEqual(["Course", "ResultFormat", "ResultGroup", "StartGroup", "TimingDevice", "TimingPoint"]);
    expect(full.results_setup.documents.Course!.map((c) => c.id)).toEqual([setup.course.id]);
    expect(full.results_setup.racers.map((r) => r.data.bib)).toEqual([1, 2, 3]);
    expect(text).not.toContain(setup.credential.token.split(".")[1]!);
    expect((await boxCall(`/races/${crypto.randomUUID()}`, { token: box.token })).status).toBe(404);
    expect((await boxCall(`/races/not-a-uuid`, { token: box.token })).status).toBe(404);
  });

  it("forwards reads for its club's race through the timing API, and never for another club's", async () => {
    const setup = await clubWithAdmin();
    const box = await pairedBox(setup);
    const batch = { boot: "box-boot-1", reads: [{ seq: 1, chip: "C1", time: setup.startMicros + 60_000_000, channel: 2 }] };
    const forward = (raceId: string, device: string | null, host = setup.host) =>
      worker.fetch(
        hostRequest(host, `/timing-api/races/${raceId}/reads`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${box.token}`, ...(device ? { "Timing-Device": device } : {}) },
          body: JSON.stringify(batch),
        }),
      );
    const sent = await forward(setup.race.id, setup.device.id);
    expect(sent.status).toBe(200);
    expect(await sent.json()).toMatchObject({ accepted: 1, duplicates: 0, last_seq: 1, boot: "box-boot-1" });
    // Sent again (a retry after a timeout): counted once, as for the device itself.
    expect(await (await forward(setup.race.id, setup.device.id)).json()).toMatchObject({ accepted: 0, duplicates: 1 });
    expect((await forward(setup.race.id, null)).status).toBe(400);
    expect(await (await forward(setup.race.id, crypto.randomUUID())).json()).toMatchObject({ error: "unknown_device" });

    const other = await createTimedRace();
    const refused = await forward(other.race.id, other.device.id, other.host);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: "not_club_race" });
    // The other race's own device still posts with its credential.
    expect((await postReads(other.host, other.race.id, other.credential.token, { reads: [{ seq: 1, chip: "C1", time: other.startMicros }] })).status).toBe(200);
  });

  it("lists its web keypads on the club's Servers page, and hands a keypad the club revoked back to the box to unpair (decision 0084)", async () => {
    const setup = await clubWithAdmin();
    const box = await pairedBox(setup);
    const [finish, range] = [crypto.randomUUID(), crypto.randomUUID()];
    const keypads = [
      { id: finish, name: "Finish phone", last_seen: 1_700_000_000_000 },
      { id: range, name: "Range tablet", last_seen: null },
    ];
    const beat = async (webclients: unknown) => {
      const answer = await boxCall("/heartbeat", { body: { webclients }, token: box.token });
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { revoked_webclients: string[] }).revoked_webclients;
    };
    expect(await beat(keypads)).toEqual([]);
    // The same list again (the next minute) adds nothing.
    expect(await beat(keypads)).toEqual([]);
    const rows = await db().select().from(serverboxes).where(eq(serverboxes.subtype, "webclient"));
    const ours = rows.filter((r) => r.serial?.startsWith(`${box.serverId}/`));
    expect(ours.map((r) => [r.name, r.clubId, r.isActive, r.lastSeenTime]).sort()).toEqual([
      ["Finish phone", setup.club.id, true, 1_700_000_000_000],
      ["Range tablet", setup.club.id, true, null],
    ]);
    const html = await (await page(`/club/${setup.club.id}/servers`, setup.cookie)).text();
    expect(html).toContain("Finish phone");
    expect(html).toContain("WebClient");
    expect(html).toContain("via Finish tent box");

    // The club revokes the finish phone: the next heartbeat's answer names it, and it stays revoked.
    const finishRow = ours.find((r) => r.name === "Finish phone")!;
    const revoke = await pagePost("localhost", `/club/${setup.club.id}/servers`, { intent: "revoke", target: finishRow.id }, setup.cookie);
    expect(revoke.status).toBe(302);
    expect(await beat(keypads)).toEqual([finish]);
    // The box forgot it and reports the tablet alone; the tablet forgotten on the box too is marked inactive.
    expect(await beat([keypads[1]])).toEqual([]);
    expect(await beat([])).toEqual([]);
    const after = await db().select().from(serverboxes).where(eq(serverboxes.subtype, "webclient"));
    expect(after.filter((r) => r.serial?.startsWith(`${box.serverId}/`)).map((r) => r.isActive)).toEqual([false, false]);

    // Another box reporting the same phone id gets a row of its own, never this box's.
    const other = await pairedBox(setup);
    expect((await boxCall("/heartbeat", { body: { webclients: [keypads[0]] }, token: other.token })).status).toBe(200);
    const [mine] = await db().select().from(serverboxes).where(eq(serverboxes.id, finishRow.id));
    expect(mine!.isActive).toBe(false);

    // Garbage: too many keypads, a bad id, an unknown field.
    const many = Array.from({ length: 51 }, (_, i) => ({ id: crypto.randomUUID(), name: `Phone ${i}`, last_seen: null }));
    expect((await boxCall("/heartbeat", { body: { webclients: many }, token: box.token })).status).toBe(400);
    expect((await boxCall("/heartbeat", { body: { webclients: [{ ...keypads[0], id: "x" }] }, token: box.token })).status).toBe(400);
    expect((await boxCall("/heartbeat", { body: { webclients: [{ ...keypads[0], admin: true }] }, token: box.token })).status).toBe(400);
  });

  it("stops working the moment it is revoked", async () => {
    const setup = await clubWithAdmin();
    const box = await pairedBox(setup);
    expect((await boxCall("/races", { token: box.token })).status).toBe(200);
    const revoke = await pagePost("localhost", `/club/${setup.club.id}/servers`, { intent: "revoke", target: box.serverId }, setup.cookie);
    expect(revoke.headers.get("Location")).toBe(`/club/${setup.club.id}/servers?saved=serverRevoked`);
    expect((await boxCall("/races", { token: box.token })).status).toBe(401);
    expect((await boxCall("/heartbeat", { body: {}, token: box.token })).status).toBe(401);
    const reads = await worker.fetch(
      hostRequest(setup.host, `/timing-api/races/${setup.race.id}/reads`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${box.token}`, "Timing-Device": setup.device.id },
        body: JSON.stringify({ reads: [{ seq: 1, chip: "C1", time: setup.startMicros }] }),
      }),
    );
    expect(reads.status).toBe(401);
    expect(await (await page(`/club/${setup.club.id}/servers`, setup.cookie)).text()).toContain("Revoked");
    // A wrong secret for a live box is refused alike.
    const live = await pairedBox(setup);
    expect((await boxCall("/races", { token: `${live.token.split(".")[0]}.wrong` })).status).toBe(401);
  });

  it("stops working when an administrator turns it off through the registry (/_admin/servers and the data API)", async () => {
    const setup = await clubWithAdmin();
    const box = await pairedBox(setup);
    const admin = await createUserWithPassword(`servers-super-${box.serverId.slice(0, 8)}@example.com`, null, [{ type: "system_admin" }]);
    await db()
      .update(roles)
      .set({ config: { servers: true } })
      .where(eq(roles.userId, admin.id));
    const apiToken = await issueToken(admin.id, await createApp({ scopes: "servers" }), "localhost", "servers");
    const off = await worker.fetch(
      hostRequest("localhost", `/data-api/Serverbox/${box.serverId}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${apiToken}`, "Content-Type": "application/json" },
        body: JSON.stringify({ is_active: false }),
      }),
    );
    expect(off.status).toBe(200);
    // The token's hash is no field of the class: the data API never shows it.
    const read = await worker.fetch(hostRequest("localhost", `/data-api/Serverbox/${box.serverId}`, { headers: { Authorization: `Bearer ${apiToken}` } }));
    expect(await read.text()).not.toContain("token");
    expect((await boxCall("/races", { token: box.token })).status).toBe(401);
  });

  it("pairs anew the club's active box of the same serial, and the old token stops working", async () => {
    const setup = await clubWithAdmin();
    const started = await startPairing("SB-SAME");
    await approve(setup.club.id, started.request_id, setup.cookie);
    const first = (await poll(started.device_code)).body.server_token as string;
    const again = await startPairing("SB-SAME");
    await approve(setup.club.id, again.request_id, setup.cookie);
    const second = (await poll(again.device_code)).body;
    expect(await db().select().from(serverboxes).where(eq(serverboxes.clubId, setup.club.id))).toHaveLength(1);
    expect((await boxCall("/races", { token: first })).status).toBe(401);
    expect((await boxCall("/races", { token: second.server_token as string })).status).toBe(200);
  });
});
