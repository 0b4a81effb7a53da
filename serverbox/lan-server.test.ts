import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Serverbox } from "./box";
import { KEYPAD_COOKIE, NOT_PAIRED, startLanServer } from "./lan-server";
import { pkg, START_US } from "./test-race";
import { WRONG_CODE } from "./webclients";

const open: { box: Serverbox; dir: string; server: Server }[] = [];
afterEach(async () => {
  for (const { box, dir, server } of open.splice(0)) {
    server.close();
    server.closeAllConnections();
    await box.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A box timing the test race (never paired to the platform) with its keypad listener on a free port. */
async function lanBox() {
  const dir = mkdtempSync(path.join(tmpdir(), "serverbox-lan-"));
  const box = new Serverbox({ server: "http://127.0.0.1:9", storeDir: dir, name: "Test box", log: () => undefined });
  box.store.saveSetup(pkg.race.id, pkg);
  expect(await box.openRace(pkg.race.id)).toBe(true);
  const server = await startLanServer(box, "127.0.0.1", 0);
  open.push({ box, dir, server });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { box, origin };
}

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
  redirect: "manual" as const,
});

async function pair(box: Serverbox, origin: string, name = "Finish phone"): Promise<string> {
  const answer = await fetch(`${origin}/keypad/pair`, form({ code: box.webClients.code, name }));
  expect(answer.status).toBe(303);
  const cookie = answer.headers.get("set-cookie") ?? "";
  expect(cookie).toMatch(new RegExp(`^${KEYPAD_COOKIE}=[\\w-]{43}; HttpOnly; SameSite=Strict; Path=/`));
  return cookie.split(";")[0]!;
}

const entries = (key: string, bib = 2) => JSON.stringify({ entries: [{ kind: "time", key, bib, point: "finish", time: START_US + 61_000_000 }] });
const post = (cookie: string | null, body: string, extra: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}), ...extra },
  body,
});

describe("the box's keypad listener for phones on the venue's network", () => {
  it("asks an unpaired browser for the code, pairs it, serves the keypad and takes its entries once", async () => {
    const { box, origin } = await lanBox();
    const first = await fetch(`${origin}/keypad`);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("Pair this keypad with Test box");

    const wrong = await fetch(`${origin}/keypad/pair`, form({ code: "not it", name: "Finish phone" }));
    expect(wrong.status).toBe(400);
    expect(wrong.headers.get("set-cookie")).toBeNull();
    expect(await wrong.text()).toContain(WRONG_CODE.replace(/'/g, "&#39;"));

    const cookie = await pair(box, origin);
    const page = await (await fetch(`${origin}/keypad`, { headers: { cookie } })).text();
    // One race timed: its keypad at once, with the setup the script renders.
    expect(page).toContain('<script type="application/json" id="keypad-setup">');
    expect(page).toContain('"points":[{"id":"finish","name":"Finish"}]');
    expect(page).toContain('"timezone":"America/Toronto"');

    const to = `${origin}/timing-api/races/${pkg.race.id}/manual`;
    const taken = await fetch(to, post(cookie, entries("phone-entry-1")));
    expect(taken.status).toBe(200);
    expect(await taken.json()).toMatchObject({ accepted: 1, duplicates: 0, unknown_bibs: [] });
    // A resend after a lost answer is the same entry.
    expect(await (await fetch(to, post(cookie, entries("phone-entry-1")))).json()).toMatchObject({ accepted: 0, duplicates: 1 });
    const results = box.timings.get(pkg.race.id)!.race.racerResults();
    expect(results.find((r) => r.id === "r2")).toMatchObject({ status: "finished", time: 61_000_000 });
    expect(box.webClients.list()[0]).toMatchObject({ name: "Finish phone", lastSeen: expect.any(Number) });
    // The entry goes to the platform naming the phone that keyed it; a phone cannot claim to be another.
    const claimed = JSON.stringify({ entries: [{ kind: "status", key: "phone-entry-2", keypad: "another-phone", bib: 3, status: "dns" }] });
    expect((await fetch(to, post(cookie, claimed))).status).toBe(200);
    const phoneId = box.webClients.list()[0]!.id;
    const logged = box.timings.get(pkg.race.id)!.log.all();
    expect(logged.map((line) => (line.kind === "manual" ? [line.entry.key, line.entry.keypad] : null))).toEqual([
      ["phone-entry-1", phoneId],
      ["phone-entry-2", phoneId],
    ]);
  });

  it("refuses entries from an unpaired or forgotten browser, from another site, and garbage, writing nothing", async () => {
    const { box, origin } = await lanBox();
    const to = `${origin}/timing-api/races/${pkg.race.id}/manual`;
    const unpaired = await fetch(to, post(null, entries("stray-entry-1")));
    expect(unpaired.status).toBe(401);
    expect(await unpaired.json()).toEqual({ error: "not_paired", message: NOT_PAIRED });
    expect((await fetch(to, post(`${KEYPAD_COOKIE}=made-up-token`, entries("stray-entry-1")))).status).toBe(401);

    const cookie = await pair(box, origin);
    expect((await fetch(to, post(cookie, entries("evil-entry-1"), { origin: "http://evil.example" }))).status).toBe(403);
    expect(
      (await fetch(`${origin}/keypad/pair`, { ...form({ code: box.webClients.code, name: "x" }), headers: { origin: "http://evil.example" } })).status,
    ).toBe(403);
    expect((await fetch(to, post(cookie, "{not json"))).status).toBe(400);
    expect((await fetch(to, post(cookie, JSON.stringify({ entries: [{ kind: "time", key: "k", bib: 1 }] })))).status).toBe(400);
    expect((await fetch(`${origin}/timing-api/races/other-race/manual`, post(cookie, entries("other-entry-1")))).status).toBe(404);
    // The keypad listener takes keypad entries only: device reads and the box's own pages stay on 127.0.0.1.
    expect((await fetch(`${origin}/timing-api/races/${pkg.race.id}/reads`, post(cookie, "{}"))).status).toBe(404);
    expect((await fetch(`${origin}/status.json`, { headers: { cookie } })).status).toBe(404);
    expect(box.timings.get(pkg.race.id)!.log.length).toBe(0);

    box.webClients.forget(box.webClients.list()[0]!.id);
    expect((await fetch(to, post(cookie, entries("late-entry-1")))).status).toBe(401);
    expect(await (await fetch(`${origin}/keypad`, { headers: { cookie } })).text()).toContain("Pair this keypad");
  });

  it("serves the platform's keypad as one script", async () => {
    const { origin } = await lanBox();
    const script = await fetch(`${origin}/keypad.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const text = await script.text();
    // The platform's keypad component, not a copy: its words and its outbox's storage keys.
    expect(text).toContain("Record a crossing now");
    expect(text).toContain("startline:keypad:");
    expect(text).not.toContain("@remix-run");
  });
});
