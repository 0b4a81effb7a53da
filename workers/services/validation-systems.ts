/**
 * Validation systems (issue 27, decision 0052): a club's list of valid membership or licence numbers,
 * uploaded as a CSV (spec CSVFile) or a pattern, and the check a registration field naming one makes. The
 * check runs beside the form's other server rules (carts' personLimits), so the page and the data API agree.
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { FormElement, StoredValue } from "../../core/forms/model";
import { chunksOf, csvColumns, matchesPattern, normaliseNumber, numbersOfCsv, VALIDATION_WORDS } from "../../core/registration/valid-numbers";
import { csvFiles, validationNumbers, validationSystems, type Db } from "../../schema/d1";
import { uniqueConstraintOf } from "../../schema/d1/errors";
import { selectByName } from "../../schema/d1/insert-select";

/** Numbers per INSERT: one JSON parameter each, well under D1's 2 MB value and 100 KB statement limits. */
const NUMBERS_PER_INSERT = 5_000;

export type ValidationSystemRow = typeof validationSystems.$inferSelect;
export type CsvFileRow = typeof csvFiles.$inferSelect;

/** The club's systems, for the form builder's choice (an inactive one too, so saving never drops it silently). */
export async function systemsOfClub(db: Db, clubId: string): Promise<{ id: string; name: string; kind: string; isActive: boolean }[]> {
  return db
    .select({ id: validationSystems.id, name: validationSystems.name, kind: validationSystems.kind, isActive: validationSystems.isActive })
    .from(validationSystems)
    .where(eq(validationSystems.clubId, clubId))
    .orderBy(validationSystems.name)
    .limit(200);
}

/** A field may only name a validation system of its own form's club. */
export async function systemReferenceProblem(db: Db, clubId: string, element: FormElement): Promise<Record<string, string> | null> {
  const id = element.config.validation_system_id;
  if (!id) return null;
  const [found] = await db
    .select({ id: validationSystems.id })
    .from(validationSystems)
    .where(and(eq(validationSystems.id, id), eq(validationSystems.clubId, clubId)))
    .limit(1);
  return found ? null : { "config.validation_system_id": "Choose a validation system of this club" };
}

/** The latest upload of a list system, or null before the first. */
export async function latestFile(db: Db, systemId: string): Promise<CsvFileRow | null> {
  const [file] = await db.select().from(csvFiles).where(eq(csvFiles.validationSystemId, systemId)).orderBy(desc(csvFiles.uploadedTime)).limit(1);
  return file ?? null;
}

/** A typed value as the check reads it: text or a number's digits; anything else is not checked. */
function typedNumber(value: StoredValue | undefined): string | null {
  const v = value?.v;
  if (typeof v === "string" && v.trim() !== "") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return null;
}

/**
 * Errors by element id for values a validation system refuses. A system that is inactive, deleted or of
 * another club checks nothing, and so does a list with no upload yet (decision 0052): a registrant is never
 * refused for the club's unfinished set-up.
 */
export async function validationErrors(
  db: Db,
  clubId: string,
  elements: readonly FormElement[],
  values: Readonly<Record<string, StoredValue>>,
): Promise<Record<string, string>> {
  const checked = elements.flatMap((element) => {
    const systemId = element.config.validation_system_id;
    const typed = systemId ? typedNumber(values[element.id]) : null;
    return systemId && typed !== null ? [{ element, systemId, typed }] : [];
  });
  if (checked.length === 0) return {};
  const ids = [...new Set(checked.map((c) => c.systemId))];
  const systems = await db
    .select({ id: validationSystems.id, kind: validationSystems.kind, pattern: validationSystems.pattern })
    .from(validationSystems)
    .where(and(inArray(validationSystems.id, ids), eq(validationSystems.clubId, clubId), eq(validationSystems.isActive, true)));
  const byId = new Map(systems.map((s) => [s.id, s]));
  const listIds = systems.filter((s) => s.kind === "list").map((s) => s.id);
  const uploaded = new Set<string>();
  const found = new Set<string>();
  if (listIds.length > 0) {
    const asked = [...new Set(checked.filter((c) => listIds.includes(c.systemId)).map((c) => normaliseNumber(c.typed)))];
    const [files, hits] = await Promise.all([
      db.selectDistinct({ id: csvFiles.validationSystemId }).from(csvFiles).where(inArray(csvFiles.validationSystemId, listIds)),
      db
        .select({ system: validationNumbers.validationSystemId, number: validationNumbers.number })
        .from(validationNumbers)
        .where(and(inArray(validationNumbers.validationSystemId, listIds), inArray(validationNumbers.number, asked))),
    ]);
    for (const f of files) uploaded.add(f.id);
    for (const h of hits) found.add(`${h.system}\n${h.number}`);
  }
  const errors: Record<string, string> = {};
  for (const { element, systemId, typed } of checked) {
    const system = byId.get(systemId);
    if (!system) continue;
    if (system.kind === "pattern") {
      if (system.pattern && !matchesPattern(system.pattern, typed)) errors[element.id] = VALIDATION_WORDS.noPattern;
    } else if (uploaded.has(systemId) && !found.has(`${systemId}\n${normaliseNumber(typed)}`)) {
      errors[element.id] = VALIDATION_WORDS.notOnList;
    }
  }
  return errors;
}

export interface Upload {
  /** The one-time id of the upload form: the CSVFile's id, so a second send of the same form acts once. */
  submission: string;
  filename: string;
  text: string;
  column: string;
  userId: string | null;
  now: number;
}

export type UploadResult = { ok: true; file: CsvFileRow; repeated: boolean } | { ok: false; errors: Record<string, string> };

/**
 * Replaces a list system's numbers with a file's column in one D1 batch (one transaction): the CSVFile row
 * first, then the old numbers out and the new in chunks, so a failed or repeated upload leaves the old list.
 */
export async function uploadNumbers(db: Db, system: ValidationSystemRow, upload: Upload): Promise<UploadResult> {
  if (system.kind !== "list") return { ok: false, errors: { form: "Only a list system takes a file; this one checks a pattern" } };
  const read = numbersOfCsv(upload.text, upload.column);
  if (!read.ok && read.error === VALIDATION_WORDS.noColumn) {
    const header = csvColumns(upload.text);
    const found = header.ok ? header.columns.filter(Boolean).slice(0, 20) : [];
    return { ok: false, errors: { column: found.length > 0 ? `${read.error}: ${found.join(", ")}` : read.error } };
  }
  if (!read.ok) return { ok: false, errors: { file: read.error } };
  const filename = upload.filename.slice(0, 200) || "numbers.csv";
  const file: CsvFileRow = {
    id: upload.submission,
    clubId: system.clubId,
    userId: upload.userId,
    validationSystemId: system.id,
    filename,
    uploadedTime: upload.now,
    columnList: read.value.columns.slice(0, 200),
    numberColumn: upload.column.trim(),
    numberCount: read.value.numbers.length,
  };
  const inserts = chunksOf(read.value.numbers, NUMBERS_PER_INSERT).map((chunk) =>
    db
      .insert(validationNumbers)
      .select(selectByName(validationNumbers, { validationSystemId: system.id, number: sql`value` }, sql`FROM json_each(${JSON.stringify(chunk)})`)),
  );
  try {
    await db.batch([db.insert(csvFiles).values(file), db.delete(validationNumbers).where(eq(validationNumbers.validationSystemId, system.id)), ...inserts]);
  } catch (error) {
    if (uniqueConstraintOf(error) !== "csv_files.id") throw error;
    const [first] = await db
      .select()
      .from(csvFiles)
      .where(and(eq(csvFiles.id, upload.submission), eq(csvFiles.validationSystemId, system.id)))
      .limit(1);
    if (!first) return { ok: false, errors: { form: "This upload form was already used; reload the page and upload again" } };
    return { ok: true, file: first, repeated: true };
  }
  return { ok: true, file, repeated: false };
}

/** Whether a number is on a list system, normalised as the registration check does (the page's lookup box). */
export async function isOnList(db: Db, systemId: string, typed: string): Promise<boolean> {
  const [hit] = await db
    .select({ n: validationNumbers.number })
    .from(validationNumbers)
    .where(and(eq(validationNumbers.validationSystemId, systemId), eq(validationNumbers.number, normaliseNumber(typed))))
    .limit(1);
  return Boolean(hit);
}

/** A system by id, for a page that has already checked the caller may see it. */
export async function systemOfId(db: Db, id: string): Promise<ValidationSystemRow | null> {
  const [system] = await db.select().from(validationSystems).where(eq(validationSystems.id, id)).limit(1);
  return system ?? null;
}
