/**
 * The public downloads of a race: results as CSV and PDF, the start list as PDF, on the results and start
 * list pages' terms (format visibility, private races, start list visibility).
 */
import { zeroTimeOfRace } from "../../schema/race/settings";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { parseCsv } from "../../core/entity/csv";
import { inflateSync } from "node:zlib";
import { readPdf } from "../../core/testing/pdf-reader";
import { races } from "../../schema/d1";
import { db, worker } from "./auth-fixtures";
import { hostRequest } from "./fixtures";
import { edgeCacheKey } from "../../workers/services/edge-cache";
import { countReportReads, createTimedRace, postReads, SECOND } from "./timing-fixtures";

/** A timed race: bib 1 finishes in 100.5 s, bib 2 (a name a spreadsheet would run) in 95.2 s, bib 3 is on course. */
async function raceWithResults() {
  const t = await createTimedRace({ racers: 3 });
  expect((await t.room.saveRacer(t.racerIds[0]!, { first_name: "Zoë", last_name: 'Dupré, "Jr"', club: "Nordic (North)" })).ok).toBe(true);
  expect((await t.room.saveRacer(t.racerIds[1]!, { first_name: "=HYPERLINK(1)", last_name: "Smith", club: "-Club" })).ok).toBe(true);
  const at = (seconds: number) => t.startMicros + Math.round(seconds * SECOND);
  const reads = [
    { seq: 1, chip: "C1", time: at(0), channel: 1 },
    { seq: 2, chip: "C2", time: at(0), channel: 1 },
    { seq: 3, chip: "C3", time: at(0), channel: 1 },
    { seq: 4, chip: "C1", time: at(100.5), channel: 2 },
    { seq: 5, chip: "C2", time: at(95.2), channel: 2 },
  ];
  expect((await postReads(t.host, t.race.id, t.credential.token, { reads })).status).toBe(200);
  await t.room.flushLive();
  return t;
}

const get = (host: string, path: string) => worker.fetch(hostRequest(host, path));

/** The timed race with its three racers in the start group "Open", its start list public. */
async function publicStartList() {
  const t = await raceWithResults();
  const group = await t.room.saveDocument("StartGroup", null, { name: "Open" });
  if (!group.ok) throw new Error("no group");
  for (const id of t.racerIds) expect((await t.room.saveRacer(id, { setupgroup_id: (group.value as { id: string }).id })).ok).toBe(true);
  expect((await t.room.updateSettings({ start_list_visibility: "public" })).ok).toBe(true);
  return t;
}

describe("the public results CSV", () => {
  it("holds a line per racer of each result group, as the page shows it, for spreadsheets", async () => {
    const t = await raceWithResults();
    const response = await get(t.host, `/races/${t.race.id}/results.csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="timed-race-results.csv"');
    const bytes = new Uint8Array(await response.arrayBuffer());
    // UTF-8 with a byte order mark, records ending in CRLF.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // TextDecoder drops a byte order mark unless told to keep it.
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).slice(1);
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text.replaceAll("\r\n", "")).not.toContain("\n");
    const records = parseCsv(text).map((r) => r.map((c) => c.text));
    expect(records[0]).toEqual(["Result group", "Rank", "Bib", "Name", "Club", "Finish", "Time", "Diff"]);
    // Cells a spreadsheet would run as a formula (=, +, -) start with an apostrophe.
    expect(records.slice(1)).toEqual([
      ["All Racers", "1", "2", "'=HYPERLINK(1) Smith", "'-Club", "1:35.2", "1:35.2", ""],
      ["All Racers", "2", "1", 'Zoë Dupré, "Jr"', "Nordic (North)", "1:40.5", "1:40.5", "'+5.3"],
      ["All Racers", "", "3", "Racer3 Test3", "", "", "", ""],
    ]);
  });

  it("follows the results page: an unlisted format by its link, no system format for anyone, no private race, 404 for garbage", async () => {
    const t = await raceWithResults();
    const unlisted = await t.room.saveDocument("ResultFormat", null, { name: "Coaches", is_unlisted: true });
    const announcer = await t.room.saveDocument("ResultFormat", null, { name: "Announcer", is_announcer: true });
    if (!unlisted.ok || !announcer.ok) throw new Error("formats not saved");
    const { id: unlistedId } = unlisted.value as { id: string };
    const { id: announcerId } = announcer.value as { id: string };
    await t.room.flushLive();
    const byLink = await get(t.host, `/races/${t.race.id}/results.csv?format=${unlistedId}`);
    expect(byLink.status).toBe(200);
    expect(await byLink.text()).toContain('"1:35.2"');
    expect((await get(t.host, `/races/${t.race.id}?format=${announcerId}`)).status).toBe(404);
    for (const ext of ["csv", "pdf"]) {
      expect((await get(t.host, `/races/${t.race.id}/results.${ext}?format=${announcerId}`)).status).toBe(404);
      expect((await get(t.host, `/races/${t.race.id}/results.${ext}?format=not-a-format`)).status).toBe(404);
      expect((await get(t.host, `/races/${t.race.id}/results.${ext}?format=${"%FF".repeat(3)}`)).status).toBe(404);
      expect((await get(t.host, `/races/not-a-race/results.${ext}`)).status).toBe(404);
    }
    await db().update(races).set({ visibility: "private" }).where(eq(races.id, t.race.id));
    expect((await get(t.host, `/races/${t.race.id}/results.csv`)).status).toBe(404);
    expect((await get(t.host, `/races/${t.race.id}/results.pdf`)).status).toBe(404);
    expect((await get(t.host, `/races/${t.race.id}/results.pdf?format=${unlistedId}`)).status).toBe(404);
  });

  it("is a 404 when the race publishes no format, as the page shows none", async () => {
    const t = await raceWithResults();
    expect((await t.room.saveDocument("ResultFormat", t.format.id, { is_public: false, is_unlisted: true })).ok).toBe(true);
    expect((await get(t.host, `/races/${t.race.id}/results.csv`)).status).toBe(404);
    expect((await get(t.host, `/races/${t.race.id}/results.csv?format=${t.format.id}`)).status).toBe(200);
  });
});

describe("the results and start list PDFs", () => {
  it("is a PDF whose pages hold the race header and each racer's row", async () => {
    const t = await raceWithResults();
    const response = await get(t.host, `/races/${t.race.id}/results.pdf`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toBe('inline; filename="timed-race-results.pdf"');
    const bytes = new Uint8Array(await response.arrayBuffer());
    // The pages' drawing is deflated: a reader without inflate refuses it.
    expect(() => readPdf(bytes)).toThrow("a deflated content stream");
    const pdf = readPdf(bytes, inflateSync);
    expect(pdf.pages).toHaveLength(1);
    const page = pdf.pages[0]!;
    expect(page[0]).toBe("Timed Race");
    expect(page[1]).toContain("Timing Test Club");
    expect(page).toEqual(expect.arrayContaining(["Results · All Racers", "Rank", "Bib", "Name", "Club", "Finish", "Time", "Diff", "Page 1 of 1"]));
    // Each row's cells in order (blank cells draw nothing): rank, bib, name, club, finish split, time, diff.
    const row = (name: string, cells: number) => page.slice(page.indexOf(name) - 2, page.indexOf(name) + cells - 2);
    expect(row("=HYPERLINK(1) Smith", 6)).toEqual(["1", "2", "=HYPERLINK(1) Smith", "-Club", "1:35.2", "1:35.2"]);
    expect(row('Zoë Dupré, "Jr"', 7)).toEqual(["2", "1", 'Zoë Dupré, "Jr"', "Nordic (North)", "1:40.5", "1:40.5", "+5.3"]);
    expect(page).toContain("Racer3 Test3");
  });

  it("sets the type at the format's print size", async () => {
    const t = await raceWithResults();
    const sizeOf = async () =>
      /\/F1 ([\d.]+) Tf/.exec(
        readPdf(new Uint8Array(await (await get(t.host, `/races/${t.race.id}/results.pdf`)).arrayBuffer()), inflateSync).contents[0]!,
      )![1];
    expect(await sizeOf()).toBe("10");
    expect((await t.room.saveDocument("ResultFormat", t.format.id, { print_size: "large" })).ok).toBe(true);
    expect(await sizeOf()).toBe("12");
    const html = await (await get(t.host, `/races/${t.race.id}`)).text();
    expect(html).toContain("--print-size: 12pt");
    expect(html).toContain(`href="/races/${t.race.id}/results.pdf?format=${t.format.id}"`);
    expect(html).toContain(`href="/races/${t.race.id}/results.csv?format=${t.format.id}"`);
  });

  it("gives the start list only once it is public, a start group to a page", async () => {
    const t = await raceWithResults();
    const group = await t.room.saveDocument("StartGroup", null, { name: "Open" });
    if (!group.ok) throw new Error("no group");
    for (const id of t.racerIds) expect((await t.room.saveRacer(id, { setupgroup_id: (group.value as { id: string }).id })).ok).toBe(true);
    expect((await get(t.host, `/races/${t.race.id}/startlist.pdf`)).status).toBe(404);
    expect((await t.room.updateSettings({ start_list_visibility: "public" })).ok).toBe(true);
    const response = await get(t.host, `/races/${t.race.id}/startlist.pdf`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toBe('inline; filename="timed-race-start-list.pdf"');
    const pdf = readPdf(new Uint8Array(await response.arrayBuffer()), inflateSync);
    expect(pdf.pages).toHaveLength(1);
    expect(pdf.pages[0]).toEqual(expect.arrayContaining(["Start list · Open · 10 km", "Start", "Bib", "Name", "Racer3 Test3", 'Zoë Dupré, "Jr"']));
    const page = await (await get(t.host, `/races/${t.race.id}/startlist`)).text();
    expect(page).toContain(`href="/races/${t.race.id}/startlist.pdf"`);
    await db().update(races).set({ visibility: "private" }).where(eq(races.id, t.race.id));
    expect((await get(t.host, `/races/${t.race.id}/startlist.pdf`)).status).toBe(404);
  });

  it("shows a marathon's start list 500 racers a page, finds one racer by bib or name, and keeps them all in the PDF", async () => {
    const t = await raceWithResults();
    const group = await t.room.saveDocument("StartGroup", null, { name: "Wave 1" });
    if (!group.ok) throw new Error("no group");
    const wave = (group.value as { id: string }).id;
    const rows = Array.from({ length: 520 }, (_, i) => ({ first_name: "Runner", last_name: `No${1000 + i}`, bib: 1000 + i, setupgroup_id: wave }));
    expect((await t.room.importRacers(rows)).ok).toBe(true);
    expect((await t.room.updateSettings({ start_list_visibility: "public" })).ok).toBe(true);
    const base = `/races/${t.race.id}/startlist`;
    const bodyRows = (html: string) => (html.match(/<tr>/g) ?? []).length - (html.match(/<thead>/g) ?? []).length;

    const first = await (await get(t.host, base)).text();
    expect(bodyRows(first)).toBe(500);
    expect(first).toContain("Page 1 of 2, 520 racers. The PDF holds them all.");
    expect(first).toContain(`href="${base}?page=2"`);
    expect(first).toContain("<td>1000</td>");
    expect(first).not.toContain("<td>1519</td>");

    const second = await (await get(t.host, `${base}?page=2`)).text();
    expect(bodyRows(second)).toBe(20);
    expect(second).toContain("<h3>Wave 1 · No course</h3>");
    expect(second).toContain("<td>1519</td>");
    expect(second).toContain(`href="${base}?page=1"`);
    // A page past the end, or none, is the nearest one.
    expect(bodyRows(await (await get(t.host, `${base}?page=99`)).text())).toBe(20);
    expect(bodyRows(await (await get(t.host, `${base}?page=abc`)).text())).toBe(500);

    const byBib = await (await get(t.host, `${base}?q=1234`)).text();
    expect(bodyRows(byBib)).toBe(1);
    expect(byBib).toContain("No1234");
    expect(byBib).toContain("1 racer matches “1234”.");
    const byName = await (await get(t.host, `${base}?q=no123`)).text();
    expect(bodyRows(byName)).toBe(10);
    // Control characters are dropped from a search rather than matched and echoed back.
    expect(await (await get(t.host, `${base}?q=%00No1234%07`)).text()).toContain("1 racer matches “No1234”.");
    const nobody = await (await get(t.host, `${base}?q=Nobody`)).text();
    expect(nobody).toContain("No racer matches “Nobody”.");
    // Said once, not beside a count of nought.
    expect(nobody.split("No racer matches").length - 1).toBe(1);
    expect(nobody).not.toContain("0 racers match");

    const pdf = readPdf(new Uint8Array(await (await get(t.host, `${base}.pdf`)).arrayBuffer()), inflateSync);
    const names = pdf.pages.flat().filter((text) => /^Runner No\d+$/.test(text));
    expect(names).toHaveLength(520);
  });

  it("builds a public start list once per list revision: the same page and PDF come from the edge, an edit shows on the next request", async () => {
    const t = await publicStartList();
    const base = `/races/${t.race.id}/startlist`;

    const first = await get(t.host, `${base}.pdf`);
    expect(first.headers.get("X-Edge-Cache")).toBe("miss");
    await first.arrayBuffer();
    const again = await get(t.host, `${base}.pdf`);
    expect(again.headers.get("X-Edge-Cache")).toBe("hit");
    // The address names no revision: a browser asks again each time, and the edge answers.
    expect(again.headers.get("Cache-Control")).toBe("no-store");
    expect(readPdf(new Uint8Array(await again.arrayBuffer()), inflateSync).pages[0]).toContain("Racer3 Test3");

    expect(await (await get(t.host, `${base}?q=Racer3`)).text()).toContain("Racer3 Test3");
    const revision = await t.room.listRevision();
    const pageKey = edgeCacheKey(
      `/races/${t.race.id}/r${revision}/z${zeroTimeOfRace(t.race.startTime, t.race.timezone)}/startlist`,
      new URLSearchParams({ q: "Racer3", page: "1" }),
    );
    expect(await (caches as unknown as { default: Cache }).default.match(pageKey)).toBeDefined();
    // The racers' copy, which another isolate of this edge reads instead of the room, is stored whole.
    const zero = zeroTimeOfRace(t.race.startTime, t.race.timezone);
    const racersCopy = await (caches as unknown as { default: Cache }).default.match(
      edgeCacheKey(`/races/${t.race.id}/r${revision}/z${zero}/report-racers`, new URLSearchParams()),
    );
    expect(((await racersCopy!.json()) as { id: string }[]).map((r) => r.id).sort()).toEqual([...t.racerIds].sort());

    expect((await t.room.saveRacer(t.racerIds[2]!, { first_name: "Renamed" })).ok).toBe(true);
    const page = await (await get(t.host, `${base}?q=Test3`)).text();
    expect(page).toContain("Renamed Test3");
    const changed = await get(t.host, `${base}.pdf`);
    expect(changed.headers.get("X-Edge-Cache")).toBe("miss");
    const text = readPdf(new Uint8Array(await changed.arrayBuffer()), inflateSync).pages[0]!;
    expect(text).toContain("Renamed Test3");
    expect(text).not.toContain("Racer3 Test3");
  });

  it("reads the race's room once for a crowd that opens a new revision's start list together", async () => {
    const t = await publicStartList();
    const { reads } = await countReportReads(t.room);
    const base = `/races/${t.race.id}/startlist`;
    const crowd = ["", "?page=1", "?q=Racer", "?q=Test3", "?q=2", "", "?q=Racer", ".pdf"];
    const pages = await Promise.all(crowd.map(async (query) => (await get(t.host, `${base}${query}`)).status));
    expect(pages.every((status) => status === 200)).toBe(true);
    expect(reads()).toBe(1);
    // An edit is a new revision: read once more, then from the copy again.
    expect((await t.room.saveRacer(t.racerIds[0]!, { club: "Moved" })).ok).toBe(true);
    await Promise.all(crowd.map((query) => get(t.host, `${base}${query}`).then((r) => r.arrayBuffer())));
    expect(reads()).toBe(2);
  });
});
