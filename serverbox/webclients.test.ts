import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_REPORTED_WEBCLIENTS } from "../core/servers/pairing";
import { CODE_REPLACED, MAX_WRONG_CODES, NAME_NEEDED, REPEAT_MS, SEEN_SAVE_MS, WebClients, WRONG_CODE } from "./webclients";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const store = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "webclients-"));
  dirs.push(dir);
  return dir;
};
const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");
/** Codes drawn in order: 100001, 100002, … */
const drawInOrder = () => {
  let n = 100_000;
  return () => String(++n);
};

describe("web keypads paired to a serverbox", () => {
  it("pairs a browser by the code on the box's page, keeps only the token's hash, and verifies it after a restart", () => {
    const dir = store();
    expect(new WebClients(dir).code).toMatch(/^\d{6}$/);
    const clients = new WebClients(dir, () => 1_000, drawInOrder());
    const code = clients.code;
    // Typed with the space the page shows between its halves.
    const paired = clients.pair(`${code.slice(0, 3)} ${code.slice(3)}`, "  Finish line phone ");
    expect(paired.ok).toBe(true);
    if (!paired.ok) return;
    expect(paired.client.name).toBe("Finish line phone");
    // One code pairs one browser: the next keypad reads a new one.
    expect(clients.code).toBe("100002");
    const file = readFileSync(path.join(dir, "webclients.json"), "utf8");
    expect(file).not.toContain(paired.token);
    expect(file).toContain(paired.client.tokenHash);

    const again = new WebClients(dir, () => 2_000);
    expect(again.verify(paired.token)).toMatchObject({ id: paired.client.id, lastSeen: 2_000 });
    expect(again.verify(`${paired.token}x`)).toBeNull();
    expect(again.verify(null)).toBeNull();
    expect(again.verify("x".repeat(500))).toBeNull();
  });

  it("keeps a phone's last-seen time across a restart, written at most once a minute", () => {
    const dir = store();
    let now = 1_000;
    const clients = new WebClients(dir, () => now, drawInOrder());
    const paired = clients.pair(clients.code, "Range phone");
    if (!paired.ok) throw new Error("not paired");
    now = 2_000;
    clients.verify(paired.token);
    now = 2_000 + SEEN_SAVE_MS - 1;
    clients.verify(paired.token);
    // The box restarts: the first entry's time was written, the one under a minute after it was not.
    expect(new WebClients(dir).report()).toEqual([{ id: paired.client.id, name: "Range phone", last_seen: 2_000 }]);
    now = 2_000 + SEEN_SAVE_MS;
    clients.verify(paired.token);
    expect(new WebClients(dir).report()[0]?.last_seen).toBe(2_000 + SEEN_SAVE_MS);
  });

  it("refuses wrong codes and, after five, replaces the code so guessing starts over against a new one", () => {
    const clients = new WebClients(store(), Date.now, drawInOrder());
    const code = clients.code;
    for (let i = 1; i < MAX_WRONG_CODES; i++) expect(clients.pair(wrongOf(code), "Phone")).toEqual({ ok: false, message: WRONG_CODE });
    expect(clients.code).toBe(code);
    expect(clients.pair(wrongOf(code), "Phone")).toEqual({ ok: false, message: CODE_REPLACED });
    expect(clients.code).toBe("100002");
    // The old code no longer pairs, even typed right.
    expect(clients.pair(code, "Phone")).toEqual({ ok: false, message: WRONG_CODE });
    expect(clients.list()).toHaveLength(0);
  });

  it("answers a pairing form sent twice (a double click) with the same keypad, not a wrong code, for ten seconds", () => {
    let now = 1_000;
    const clients = new WebClients(store(), () => now, drawInOrder());
    const first = clients.pair("100001", "Finish phone");
    const second = clients.pair("100 001", "Finish phone ");
    expect(second).toEqual(first);
    expect(clients.list()).toHaveLength(1);
    // Another name with that code is another browser: the code is spent.
    expect(clients.pair("100001", "Range tablet")).toEqual({ ok: false, message: WRONG_CODE });
    now += REPEAT_MS;
    expect(clients.pair("100001", "Finish phone")).toEqual({ ok: false, message: WRONG_CODE });
  });

  it("wants a name, and forgets a lost phone so its token stops working", () => {
    const dir = store();
    const clients = new WebClients(dir);
    expect(clients.pair(clients.code, "   ")).toEqual({ ok: false, message: NAME_NEEDED });
    expect(clients.pair(clients.code, "x".repeat(61))).toEqual({ ok: false, message: NAME_NEEDED });
    const first = clients.pair(clients.code, "Range tablet");
    const second = clients.pair(clients.code, "Finish phone");
    if (!first.ok || !second.ok) throw new Error("both should pair");
    expect(clients.forget(first.client.id)).toBe(true);
    expect(clients.forget(first.client.id)).toBe(false);
    const reopened = new WebClients(dir);
    expect(reopened.verify(first.token)).toBeNull();
    expect(reopened.verify(second.token)?.name).toBe("Finish phone");
  });

  it("reports to the platform the 50 keypads paired last, as many as a heartbeat may carry", () => {
    const clients = new WebClients(store(), Date.now, drawInOrder());
    for (let i = 1; i <= MAX_REPORTED_WEBCLIENTS + 1; i++) expect(clients.pair(clients.code, `Phone ${i}`).ok).toBe(true);
    const report = clients.report();
    expect(report).toHaveLength(50);
    expect(report[0]!.name).toBe("Phone 2");
    expect(report[49]!.name).toBe("Phone 51");
  });

  it("starts with no keypads from a damaged file instead of failing the box", () => {
    const dir = store();
    const clients = new WebClients(dir);
    const paired = clients.pair(clients.code, "Phone");
    if (!paired.ok) throw new Error("should pair");
    writeFileSync(path.join(dir, "webclients.json"), '{"clients": [');
    expect(new WebClients(dir).list()).toEqual([]);
  });
});
