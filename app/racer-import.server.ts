/**
 * Importing racers from a CSV file or pasted text on /race/:id/admin/racers: the columns read by header, each
 * row checked as a racer form would be, a preview of what would be created before anything is written.
 */
import * as z from "zod";
import { parseCsv, CsvSyntaxError } from "../core/entity/csv";
import { racerDisplayName } from "../core/timing/racer-name";
import { type ReportGroupRef } from "../core/timing/start-list";
import type { RacerView } from "../durable/race-room";
import { chipsOf, type RacerDoc } from "../schema/race/racer";
import { type RacerSetup, racerChangesFrom, customName } from "./racers.server";

/** Uploads and pasted text above this are refused before parsing. */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 5000;

/** Header names accepted for each racer field, compared lowercased with spaces, dashes and underscores removed. */
const COLUMN_ALIASES: Record<string, readonly string[]> = {
  first_name: ["firstname", "first", "givenname"],
  last_name: ["lastname", "last", "surname", "familyname"],
  bib: ["bib", "bibnumber", "bibno", "number"],
  chip: ["chip", "chipnumber", "chipid"],
  chip_list: ["chips", "chiplist", "extrachips"],
  course: ["course", "coursename", "distance"],
  setupgroup_id: ["startgroup", "startgroupname", "wave"],
  sex: ["sex", "gender"],
  club: ["club"],
  team: ["team"],
  city: ["city", "town"],
  category: ["category", "class"],
  scheduled_start_time: ["scheduledstart", "scheduledstarttime", "starttime"],
  ccc_licence: ["ccclicence", "ccclicense", "ccclicencenumber", "ccclicensenumber"],
  licence: ["licence", "license", "licencenumber", "licensenumber"],
  cpl_distance_pts: ["cpldistancepts", "cpldistancepoints"],
  cpl_sprint_pts: ["cplsprintpts", "cplsprintpoints"],
  seed: ["seed"],
  is_manual_seed: ["ismanualseed", "manualseed"],
};

const headerKey = (text: string) => text.toLowerCase().replace(/[\s_\-.]/g, "");

export interface ImportRow {
  /** The row in the file, counting the header as row 1, as a spreadsheet numbers it. */
  row: number;
  name: string;
  bib: string;
  errors: { field: string; message: string }[];
  changes: Partial<RacerDoc> | null;
}

export interface ImportPreview {
  /** Columns used, as "Header → field". */
  mapped: { header: string; field: string }[];
  ignored: string[];
  rows: ImportRow[];
  /** A problem with the file as a whole (empty, not CSV, too big). */
  fileError: string | null;
}

/** What the race's depots say of a row's chip (workers/services/racer-chips.ts `importChip`, decision 0076). */
export type DepotChipRule = (
  chips: Pick<RacerDoc, "chip" | "chip_list">,
) => { ok: true; chips: Pick<RacerDoc, "chip" | "chip_list"> } | { ok: false; field: "chip" | "chip_list"; problem: string };
const keepChip: DepotChipRule = (chips) => ({ ok: true, chips });

/** The label a row error names its field by. */
export function fieldLabel(name: string, setup: RacerSetup): string {
  const labels: Record<string, string> = {
    first_name: "First name",
    last_name: "Last name",
    bib: "Bib",
    chip: "Chip",
    chip_list: "Chips",
    course: "Course",
    setupgroup_id: "Start group",
    sex: "Sex",
    club: "Club",
    team: "Team",
    city: "City",
    category: "Category",
    scheduled_start_time: "Scheduled start",
    penalty: "Penalty",
    bonus: "Bonus",
    add_back: "Add back",
    para_factor: "Para factor",
    ccc_licence: "CCC licence",
    licence: "Licence",
    cpl_distance_pts: "CPL distance points",
    cpl_sprint_pts: "CPL sprint points",
    seed: "Seed",
    is_manual_seed: "Manual seed",
    status_time: "Status time",
    form: "Row",
  };
  if (name.startsWith("custom.")) return setup.fields.find((f) => customName(f.key) === name)?.display ?? name.slice(7);
  return labels[name] ?? name;
}

/**
 * Reads an import: a header row naming racer fields (standard names, custom field keys or display names)
 * and one racer per row. Course and start group are given by name. Every row is checked as the racer
 * form would check it, plus bibs and chips against the race's racers and the file's other rows, so the
 * preview shows the problems importRacers would refuse.
 */
export function previewImport(text: string, setup: RacerSetup, existing: RacerView[], depotChip: DepotChipRule = keepChip): ImportPreview {
  const empty = (fileError: string): ImportPreview => ({ mapped: [], ignored: [], rows: [], fileError });
  let records;
  try {
    records = parseCsv(text.replace(/^\uFEFF/, "")).filter((r) => r.some((c) => c.text.trim() !== ""));
  } catch (error) {
    if (error instanceof CsvSyntaxError) return empty(`The file is not valid CSV: ${error.message}.`);
    throw error;
  }
  if (records.length < 2) return empty("The file needs a header row and at least one racer.");
  if (records.length - 1 > IMPORT_MAX_ROWS) return empty(`A file may hold at most ${IMPORT_MAX_ROWS} racers; split it into smaller files.`);

  const fieldByHeader = new Map<string, string>();
  for (const [field, aliases] of Object.entries(COLUMN_ALIASES)) for (const alias of aliases) fieldByHeader.set(alias, field);
  for (const f of setup.fields) {
    fieldByHeader.set(headerKey(f.key), customName(f.key));
    fieldByHeader.set(headerKey(f.display), customName(f.key));
  }
  const header = records[0]!.map((c) => c.text.trim());
  const columns = header.map((h) => fieldByHeader.get(headerKey(h)) ?? null);
  const mapped: ImportPreview["mapped"] = [];
  const seen = new Set<string>();
  const ignored: string[] = [];
  columns.forEach((field, i) => {
    // A field named twice takes its first column.
    if (field && !seen.has(field)) {
      seen.add(field);
      mapped.push({ header: header[i]!, field: fieldLabel(field, setup) });
    } else {
      columns[i] = null;
      if (header[i]) ignored.push(header[i]!);
    }
  });
  if (mapped.length === 0)
    return { mapped, ignored, rows: [], fileError: "No column of the header row names a racer field (for example First Name, Last Name, Bib)." };

  const byName = (list: ReportGroupRef[]) => new Map(list.map((x) => [x.name.trim().toLowerCase(), x.id]));
  const courses = byName(setup.courses);
  const groups = byName(setup.startGroups);
  const bibOwner = new Map<number, string>();
  const chipOwner = new Map<string, string>();
  for (const r of existing) {
    if (r.data.bib !== null) bibOwner.set(r.data.bib, "another racer");
    for (const chip of chipsOf(r.data)) chipOwner.set(chip, "another racer");
  }
  const present = new Set(columns.filter((c): c is string => c !== null));

  const rows = records.slice(1).map((record, index): ImportRow => {
    const rowNumber = index + 2;
    const raw: Record<string, string> = {};
    columns.forEach((field, i) => {
      if (field) raw[field] = record[i]?.text.trim() ?? "";
    });
    const errors: ImportRow["errors"] = [];
    const lookUp = (field: "course" | "setupgroup_id", names: Map<string, string>, label: string) => {
      const name = raw[field];
      if (!name) return;
      const id = names.get(name.toLowerCase());
      if (id) raw[field] = id;
      else {
        errors.push({ field: fieldLabel(field, setup), message: `No ${label} named “${name}”` });
        delete raw[field];
      }
    };
    lookUp("course", courses, "course");
    lookUp("setupgroup_id", groups, "start group");
    const parsed = racerChangesFrom(raw, setup, present);
    if (!parsed.ok) for (const [field, message] of Object.entries(parsed.errors)) errors.push({ field: fieldLabel(field, setup), message });
    const changes = parsed.ok ? parsed.changes : null;
    if (changes?.chip || changes?.chip_list?.length) {
      // A depot's chip is written as the depot writes it, and refused when the depot marked it faulty or lost.
      const depot = depotChip({ chip: changes.chip ?? null, chip_list: changes.chip_list ?? [] });
      if (!depot.ok) errors.push({ field: fieldLabel(depot.field, setup), message: depot.problem });
      else {
        if (changes.chip) changes.chip = depot.chips.chip;
        if (changes.chip_list) changes.chip_list = depot.chips.chip_list;
      }
    }
    if (changes) {
      const bib = changes.bib ?? null;
      if (bib !== null) {
        const owner = bibOwner.get(bib);
        if (owner) errors.push({ field: "Bib", message: owner === "another racer" ? `Bib ${bib} is already taken` : `Bib ${bib} is also on ${owner}` });
        else bibOwner.set(bib, `row ${rowNumber}`);
      }
      for (const chip of chipsOf({ chip: changes.chip ?? null, chip_list: changes.chip_list ?? [] })) {
        const owner = chipOwner.get(chip);
        if (owner) errors.push({ field: "Chip", message: owner === "another racer" ? `Chip ${chip} is already taken` : `Chip ${chip} is also on ${owner}` });
        else chipOwner.set(chip, `row ${rowNumber}`);
      }
    }
    const name = racerDisplayName({ firstName: raw.first_name, lastName: raw.last_name }, setup.settings.is_last_name_first);
    return { row: rowNumber, name, bib: raw.bib ?? "", errors, changes: errors.length === 0 ? changes : null };
  });
  return { mapped, ignored, rows, fileError: null };
}

/** Rows listed in the preview when all is well; the count covers the rest. */
export const PREVIEW_SAMPLE_ROWS = 50;

/** What the preview page shows: every problem, and a sample of the rows (not the whole file back). */
export function previewView(preview: ImportPreview) {
  return {
    mapped: preview.mapped,
    ignored: preview.ignored,
    fileError: preview.fileError,
    total: preview.rows.length,
    problems: preview.rows.flatMap((r) => r.errors.map((e) => ({ row: r.row, ...e }))),
    sample: preview.rows.slice(0, PREVIEW_SAMPLE_ROWS).map((r) => ({ row: r.row, bib: r.bib, name: r.name })),
  };
}
export type ImportPreviewView = ReturnType<typeof previewView>;

const importFormSchema = z.object({
  intent: z.enum(["preview", "import"], { error: "Unknown action" }),
  text: z.string().catch(""),
  source: z.string().trim().max(200).catch(""),
});

/**
 * The import form: pasted text or an uploaded file (multipart), at most IMPORT_MAX_BYTES. The confirm
 * step posts the same text back, so nothing is kept between the preview and the import.
 */
export async function readImportForm(request: Request): Promise<{ intent: "preview" | "import"; text: string; source: string } | { error: string }> {
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (declared > IMPORT_MAX_BYTES + 64 * 1024) return { error: "The file is larger than 2 MB." };
  const form = await request.formData();
  const parsed = importFormSchema.safeParse({ intent: form.get("intent"), text: form.get("text"), source: form.get("source") });
  if (!parsed.success) return { error: "Unknown action" };
  const file = form.get("file");
  const upload = file && typeof file !== "string" && file.size > 0 ? file : null;
  if (upload && upload.size > IMPORT_MAX_BYTES) return { error: "The file is larger than 2 MB." };
  const text = upload ? await upload.text() : parsed.data.text;
  if (new TextEncoder().encode(text).length > IMPORT_MAX_BYTES) return { error: "The text is larger than 2 MB." };
  if (!text.trim()) return { error: "Choose a CSV file or paste the racers." };
  const source = upload ? upload.name.slice(0, 200) : parsed.data.source || "Pasted CSV";
  return { intent: parsed.data.intent, text, source };
}
