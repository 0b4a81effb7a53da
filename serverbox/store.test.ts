import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BoxStore, bootIdOf, ReadLog, type StoredRead } from "./store";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "serverbox-store-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const read = (n: number, device = "d1"): StoredRead => ({ n, device, boot: "b1", seq: n, chip: `C${n}`, time: 1_000_000 * n, at: 5 });
const raceId = "a5b6c7d8-4f1c-4a9b-8e85-5c6d7e8f9a01";

describe("the box's read log", () => {
  it("appends reads and reads them back in order after reopening", () => {
    const file = path.join(tempDir(), "reads.jsonl");
    const log = new ReadLog(file);
    log.append([read(1), read(2)]);
    log.append([read(3, "d2")]);
    log.close();
    const again = new ReadLog(file);
    expect(again.all().map((r) => [r.n, "device" in r ? r.device : null])).toEqual([
      [1, "d1"],
      [2, "d1"],
      [3, "d2"],
    ]);
    expect(again.slice(1, 1)).toEqual([read(2)]);
    again.close();
  });

  it("ignores a torn last line left by a crash, and the next read follows the last whole line", () => {
    const file = path.join(tempDir(), "reads.jsonl");
    const log = new ReadLog(file);
    log.append([read(1), read(2)]);
    log.close();
    appendFileSync(file, '{"n":3,"device":"d1","bo');
    const reopened = new ReadLog(file);
    expect(reopened.length).toBe(2);
    reopened.append([read(3)]);
    reopened.close();
    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe("");
    expect(new ReadLog(file).all().map((r) => r.n)).toEqual([1, 2, 3]);
  });

  it("refuses to start on a damaged line in the middle rather than drop acknowledged reads", () => {
    const file = path.join(tempDir(), "reads.jsonl");
    appendFileSync(file, `${JSON.stringify(read(1))}\nnot json\n${JSON.stringify(read(2))}\n`);
    expect(() => new ReadLog(file)).toThrow();
  });
});

describe("the box's store", () => {
  it("keeps the token in a file only its user may read", () => {
    const store = new BoxStore(tempDir());
    expect(store.identity()).toBeNull();
    store.saveIdentity({ serial: "SB-1", name: "Finish tent", token: "sbx_a.b", serverId: "a", clubId: "c", raceId: null, raceIds: [] });
    expect(store.identity()?.token).toBe("sbx_a.b");
    expect(statSync(path.join(store.dir, "box.json")).mode & 0o777).toBe(0o600);
  });

  it("gives a race one boot of the box's own and keeps where its sync stands", () => {
    const dir = tempDir();
    const store = new BoxStore(dir);
    const first = store.syncState(raceId, "SB 2027/42");
    expect(first.boot).toMatch(/^SB-2027-42-[0-9a-f]{12}$/);
    store.saveSyncState(raceId, { ...first, cursors: { d1: 7 }, synced: 7, accepted: 7, lastSync: 9 });
    const again = new BoxStore(dir).syncState(raceId, "SB 2027/42");
    expect(again).toEqual({ ...first, cursors: { d1: 7 }, synced: 7, accepted: 7, lastSync: 9 });
    expect(() => store.raceDir("../escape")).toThrow();
  });

  it("makes boot ids the timing API accepts", () => {
    expect(bootIdOf("x".repeat(100), "abc")).toMatch(/^[A-Za-z0-9._:-]{1,64}$/);
  });
});
