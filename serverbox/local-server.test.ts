import { mkdtempSync, rmSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { Serverbox } from "./box";
import { handle } from "./local-server";
import { pkg, START_US } from "./test-race";

const boxes: { box: Serverbox; dir: string }[] = [];
afterEach(async () => {
  for (const { box, dir } of boxes.splice(0)) {
    await box.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A box timing the test race, never paired, so it never calls the platform. */
async function timingBox(): Promise<Serverbox> {
  const dir = mkdtempSync(path.join(tmpdir(), "serverbox-http-"));
  const box = new Serverbox({ server: "http://127.0.0.1:9", storeDir: dir, name: "Test box", log: () => undefined });
  boxes.push({ box, dir });
  box.store.saveSetup(pkg.race.id, pkg);
  expect(await box.openRace(pkg.race.id)).toBe(true);
  return box;
}

/** Runs one request through the box's handler and returns the answer. */
async function call(box: Serverbox, method: string, url: string, headers: Record<string, string> = {}, body = "") {
  const request = Object.assign(Readable.from(body === "" ? [] : [Buffer.from(body)]), {
    method,
    url,
    headers: { host: "127.0.0.1:8788", ...headers },
  }) as unknown as IncomingMessage;
  const answer = { status: 0, headers: {} as Record<string, string>, text: "" };
  const response: { headersSent: boolean; writeHead: (status: number, head: Record<string, string>) => void; end: (text?: string) => void } = {
    headersSent: false,
    writeHead(status: number, head: Record<string, string>) {
      answer.status = status;
      answer.headers = head;
      response.headersSent = true;
    },
    end(text?: string) {
      answer.text = text ?? "";
    },
  };
  await handle(box, request, response as unknown as ServerResponse);
  return { ...answer, json: () => JSON.parse(answer.text) as Record<string, unknown> };
}

const reads = (seq: number, chip = "C1") => JSON.stringify({ boot: "b", reads: [{ seq, chip, time: START_US + 60_000_000 }] });
const json = { "content-type": "application/json" };

describe("the box's local server", () => {
  it("takes reads as the timing API does, naming the device by header or by its credential's id", async () => {
    const box = await timingBox();
    const byHeader = await call(box, "POST", `/timing-api/races/${pkg.race.id}/reads`, { ...json, "timing-device": "reader" }, reads(1));
    expect(byHeader.status).toBe(200);
    expect(byHeader.json()).toMatchObject({ accepted: 1, duplicates: 0 });
    const byCredential = await call(box, "POST", `/timing-api/races/${pkg.race.id}/reads`, { ...json, authorization: "Bearer reader.s3cret" }, reads(1));
    expect(byCredential.json()).toMatchObject({ accepted: 0, duplicates: 1 });
    const status = (await call(box, "GET", "/status.json")).json();
    expect(status).toMatchObject({ paired: false, readsStored: 1, readsSynced: 0, race: { id: pkg.race.id, name: "Box Classic" } });
    const results = (await call(box, "GET", "/results.json")).json() as { racers: { id: string; time: number | null }[] };
    expect(results.racers[0]).toEqual({ id: "r1", status: "finished", time: 60_000_000 });
    const page = await call(box, "GET", "/");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Racer1 Test");
    expect(page.text).toContain("1:00.0");
  });

  it("answers garbage with a 4xx and writes nothing", async () => {
    const box = await timingBox();
    const to = `/timing-api/races/${pkg.race.id}/reads`;
    expect((await call(box, "POST", to, { "timing-device": "reader" }, reads(1))).status).toBe(415);
    expect((await call(box, "POST", to, { ...json, "timing-device": "reader" }, "{not json")).json()).toMatchObject({ error: "invalid_json" });
    expect((await call(box, "POST", to, json, reads(1))).json()).toMatchObject({ error: "unknown_device" });
    expect((await call(box, "POST", to, { ...json, "timing-device": "reader" }, "x".repeat(600 * 1024))).status).toBe(413);
    expect((await call(box, "POST", `/timing-api/races/other/reads`, { ...json, "timing-device": "reader" }, reads(1))).status).toBe(404);
    expect((await call(box, "GET", to)).status).toBe(405);
    expect((await call(box, "GET", "/nowhere")).status).toBe(404);
    expect((await call(box, "POST", "/race", { origin: "http://evil.example" }, "raceId=x")).status).toBe(403);
    expect((await call(box, "POST", "/race", {}, "raceId=not-a-race")).status).toBe(400);
    expect(box.timings.get(pkg.race.id)!.log.length).toBe(0);
  });
});
