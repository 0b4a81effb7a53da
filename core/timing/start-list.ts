/**
 * The report templates of timing.md section 2 ("Report templates") as pure builders: the Start List and
 * the Chip Rack, each as sections of rows that a page renders as tables and a download writes as CSV.
 */
import { spreadsheetCsv } from "../entity/csv";
import { exactTimeOfDay } from "../time/format";
import type { Micros } from "./model";
import { racerDisplayName } from "./racer-name";
import { groupedBy } from "../lists/group";

/** What the reports read of a racer (the storage document mapped by the caller). */
export interface ReportRacer {
  id: string;
  bib: number | null;
  firstName: string;
  lastName: string;
  fullname: string;
  chips: readonly string[];
  team: string | null;
  club: string | null;
  city: string | null;
  /** A custom racer field where the race has one; null otherwise. */
  country: string | null;
  courseId: string | null;
  startGroupId: string | null;
  /** Absolute microseconds. */
  scheduledStart: Micros | null;
  /** The ranking points seeding used (decision 0054); the start list shows them when any racer has some. */
  rankingPoints?: number | null;
  /** The seed the start order gave (its page shows it). */
  seed?: number | null;
}

/** A start group or course as the reports group by it. */
export interface ReportGroupRef {
  id: string;
  name: string;
  ordinal: number;
}

export interface StartListSection {
  startGroup: ReportGroupRef;
  /** null for racers of the group with no course (or a course that no longer exists). */
  course: ReportGroupRef | null;
  racers: ReportRacer[];
}

const byNullableNumber = (a: number | null, b: number | null) => (a ?? Infinity) - (b ?? Infinity);
const byRef = (a: ReportGroupRef, b: ReportGroupRef) => a.ordinal - b.ordinal || a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

/** Scheduled start, then bib (racers with neither last), then name so the order never depends on storage. */
function compareForStartList(a: ReportRacer, b: ReportRacer): number {
  return (
    byNullableNumber(a.scheduledStart, b.scheduledStart) || byNullableNumber(a.bib, b.bib) || racerDisplayName(a, true).localeCompare(racerDisplayName(b, true))
  );
}

/**
 * Start List: grouped by start group and course, sorted by scheduled start then bib, showing only entries
 * that have a start group. A start group id that names no existing group counts as none. Groups come in
 * start group order (ordinal), then course order; a group's racers without a course come after its courses.
 */
export function buildStartList(racers: readonly ReportRacer[], startGroups: readonly ReportGroupRef[], courses: readonly ReportGroupRef[]): StartListSection[] {
  const groupsById = new Map(startGroups.map((g) => [g.id, g]));
  const coursesById = new Map(courses.map((c) => [c.id, c]));
  const sections = new Map<string, StartListSection>();
  for (const racer of racers) {
    const startGroup = racer.startGroupId ? groupsById.get(racer.startGroupId) : undefined;
    if (!startGroup) continue;
    const course = (racer.courseId ? coursesById.get(racer.courseId) : undefined) ?? null;
    const key = `${startGroup.id}\u0000${course?.id ?? ""}`;
    let section = sections.get(key);
    if (!section) sections.set(key, (section = { startGroup, course, racers: [] }));
    section.racers.push(racer);
  }
  return [...sections.values()]
    .sort((a, b) => byRef(a.startGroup, b.startGroup) || (a.course && b.course ? byRef(a.course, b.course) : a.course ? -1 : b.course ? 1 : 0))
    .map((section) => ({ ...section, racers: section.racers.sort(compareForStartList) }));
}

/**
 * The chip rack of a bib: its hundreds ("0" for bibs 0-99, "1" for 100-199, "12" for 1200-1299), the way
 * chips are hung on numbered racks by bib. A racer without a bib has no rack (null).
 */
export function chipRackOf(bib: number | null): string | null {
  return bib === null ? null : String(Math.floor(bib / 100));
}

export interface ChipRackSection {
  rack: string | null;
  racers: ReportRacer[];
}

/** Chip Rack: grouped by chip rack (in rack order, racers without a bib last), sorted by bib. */
export function buildChipRack(racers: readonly ReportRacer[]): ChipRackSection[] {
  const racks = groupedBy(racers, (racer) => chipRackOf(racer.bib));
  return [...racks.entries()]
    .sort(([a], [b]) => byNullableNumber(a === null ? null : Number(a), b === null ? null : Number(b)))
    .map(([rack, list]) => ({
      rack,
      racers: list.sort((a, b) => byNullableNumber(a.bib, b.bib) || racerDisplayName(a, true).localeCompare(racerDisplayName(b, true))),
    }));
}

/** A report as rows: what the page shows as one table per section and the download as one CSV. */
export interface ReportTable {
  /** Columns naming each section in the CSV (the page shows them as the section's heading). */
  groupColumns: string[];
  columns: string[];
  sections: { heading: string; group: string[]; rows: string[][] }[];
}

export interface ReportOptions {
  lastNameFirst: boolean;
  /** The race's zero time (absolute microseconds), for scheduled starts as times of day. */
  zeroTime: Micros;
}

const nameOf = (racer: ReportRacer, lastNameFirst: boolean) => racerDisplayName(racer, lastNameFirst);
const textOf = (value: string | number | null) => (value === null ? "" : String(value));

export function startListTable(sections: readonly StartListSection[], options: ReportOptions): ReportTable {
  const withPoints = sections.some((s) => s.racers.some((r) => typeof r.rankingPoints === "number"));
  const pointsCell = (r: ReportRacer) => (withPoints ? [typeof r.rankingPoints === "number" ? r.rankingPoints.toFixed(2) : ""] : []);
  return {
    groupColumns: ["Start group", "Course"],
    columns: ["Start", "Bib", "Name", "Club", "Team", "City", ...(withPoints ? ["Ranking points"] : [])],
    sections: sections.map((section) => {
      const group = [section.startGroup.name || "Unnamed start group", section.course?.name ?? "No course"];
      return {
        heading: group.join(" · "),
        group,
        rows: section.racers.map((r) => [
          r.scheduledStart === null ? "" : exactTimeOfDay(r.scheduledStart - options.zeroTime),
          textOf(r.bib),
          nameOf(r, options.lastNameFirst),
          textOf(r.club),
          textOf(r.team),
          textOf(r.city),
          ...pointsCell(r),
        ]),
      };
    }),
  };
}

export function chipRackTable(sections: readonly ChipRackSection[], options: Pick<ReportOptions, "lastNameFirst">): ReportTable {
  return {
    groupColumns: [],
    columns: ["Bib", "Chip rack", "Chips", "Name", "Team", "Club", "City", "Country"],
    sections: sections.map((section) => ({
      heading: section.rack === null ? "No bib" : `Rack ${section.rack}`,
      group: [],
      rows: section.racers.map((r) => [
        textOf(r.bib),
        textOf(section.rack),
        r.chips.join(", "),
        nameOf(r, options.lastNameFirst),
        textOf(r.team),
        textOf(r.club),
        textOf(r.city),
        textOf(r.country),
      ]),
    })),
  };
}

/** A report as one CSV: the group columns, then the report's columns, one line per racer. */
export function reportCsv(table: ReportTable): string {
  return spreadsheetCsv(
    [...table.groupColumns, ...table.columns],
    table.sections.flatMap((section) => section.rows.map((row) => [...section.group, ...row])),
  );
}

/** Rows a report page shows: a marathon's start list is 50,000 rows, which no page should render at once. */
export const REPORT_ROWS_PER_PAGE = 500;

export interface ReportPage {
  table: ReportTable;
  /** 1-based, clamped into range. */
  page: number;
  pages: number;
  /** Rows in the whole report. */
  rows: number;
}

/**
 * One page of a report: its rows in report order, `perPage` at most, each under its section's heading (a section
 * that runs over a page break is headed on both pages). An out-of-range page shows the nearest one.
 */
export function reportPage(table: ReportTable, page: number, perPage = REPORT_ROWS_PER_PAGE): ReportPage {
  const rows = table.sections.reduce((n, s) => n + s.rows.length, 0);
  const size = Math.max(1, Math.floor(perPage));
  const pages = Math.max(1, Math.ceil(rows / size));
  const shown = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const from = (shown - 1) * size;
  const to = from + size;
  const sections: ReportTable["sections"] = [];
  let at = 0;
  for (const section of table.sections) {
    const start = Math.max(from - at, 0);
    const end = Math.min(to - at, section.rows.length);
    if (start < end) sections.push({ ...section, rows: section.rows.slice(start, end) });
    at += section.rows.length;
    if (at >= to) break;
  }
  return { table: { ...table, sections }, page: shown, pages, rows };
}
