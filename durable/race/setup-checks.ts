/**
 * Rules across a race's setup that one document's schema cannot say: a settings change checked whole
 * (biathlon devices, relay handover point, free order), and a document checked against the others.
 */
import { fieldErrorsOf, type FieldErrors } from "../../core/entity/field-errors";
import { BIATHLON_LAPS_TOO_FEW, BIATHLON_MIN_LAPS, biathlonSetupProblems } from "../../core/timing/biathlon";
import { TIMING_ERRORS } from "../../core/timing/errors";
import { NOT_A_RACE_TIMING_POINT } from "../../core/timing/validation";
import type { CourseDoc, RaceDocumentKind, StoredDocument } from "../../schema/race/documents";
import { biathlonSetupOf, raceSettingsChangeSchema, readRaceSettings, type RaceSettings } from "../../schema/race/settings";
import { freeOrderProblems } from "./free-order-sync";
import type { RaceStore } from "./store";

/** A settings change parsed field by field and merged, then checked whole (the biathlon setup needs several fields and the devices). */
export function checkSettingsChange(store: RaceStore, stored: unknown, changes: Record<string, unknown>) {
  const parsed = raceSettingsChangeSchema.safeParse(changes);
  if (!parsed.success) return { ok: false as const, errors: fieldErrors(parsed.error.issues) };
  const next = { ...readRaceSettings(stored), ...definedOnly(parsed.data) };
  const devices = store.documents("TimingDevice").map((d) => ({ id: d.id, type: d.data.type }));
  const biathlon = biathlonSetupProblems(biathlonSetupOf(next), devices);
  if (Object.keys(biathlon).length > 0) return { ok: false as const, errors: biathlon };
  // A handover point must be one of the race's timing points (a stale id would find no handover read).
  const handover = next.team_relay_transition_point;
  const pointIds = new Set(store.documents("TimingPoint").map((p) => p.id));
  if (next.is_relay && handover !== null && !pointIds.has(handover))
    return { ok: false as const, errors: { team_relay_transition_point: NOT_A_RACE_TIMING_POINT } };
  const freeOrder = freeOrderProblems(next, Object.keys(definedOnly(parsed.data)), pointIds);
  if (freeOrder) return { ok: false as const, errors: freeOrder };
  return { ok: true as const, parsed: parsed.data, next };
}

/** Rules across documents that a schema alone cannot say. */
export function documentProblem(store: RaceStore, settings: RaceSettings, kind: RaceDocumentKind, data: StoredDocument["data"]): FieldErrors | null {
  if (kind === "ResultGroup") {
    const group = data as { format: string; startgroup: string | null };
    if (!store.document("ResultFormat", group.format)) return { format: "No such result format" };
    // In a sprint every result group ranks one start group's heats (timing.md section 8).
    if (settings.is_heats && !group.startgroup) return { startgroup: TIMING_ERRORS.noStartGroupForHeats };
  }
  if (kind === "Course") {
    const course = data as CourseDoc;
    const points = new Set(store.documents("TimingPoint").map((p) => p.id));
    const missing = course.points_list.find((p) => !points.has(p.point));
    if (missing) return { points_list: `No such timing point: ${missing.point}` };
    if (settings.biathlon_penalty_type !== null && (course.lap_count ?? settings.lap_count) < BIATHLON_MIN_LAPS) return { lap_count: BIATHLON_LAPS_TOO_FEW };
  }
  if (kind === "TimingPoint") {
    const devices = new Set(store.documents("TimingDevice").map((d) => d.id));
    const missing = (data as { devices_list: { id: string }[] }).devices_list.find((d) => !devices.has(d.id));
    if (missing) return { devices_list: `No such timing device: ${missing.id}` };
  }
  return null;
}

/** Zod issues as field errors keyed by their full path. */
export function fieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  return fieldErrorsOf(issues, { fullPath: true });
}

/** The fields a change set (zod leaves the others undefined). */
export function definedOnly<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Why a document cannot be deleted now: something still uses it (a course its timing point, a timing point
 * its device, racers their course or start group, a result group either), or null. Checked inside the
 * RaceRoom, the race's single writer, so nothing can start using the document between check and delete.
 */
export function deletionProblem(store: RaceStore, kind: RaceDocumentKind, id: string): string | null {
  if (kind === "TimingPoint") {
    const course = store.documents("Course").find((c) => c.data.points_list.some((p) => p.point === id));
    if (course) return `The course “${course.data.name}” uses this timing point. Take it off the course first.`;
  }
  if (kind === "TimingDevice") {
    const point = store.documents("TimingPoint").find((p) => p.data.devices_list.some((d) => d.id === id));
    if (point) return `The timing point “${point.data.name}” uses this device. Take it off the timing point first.`;
  }
  if (kind === "Course" || kind === "StartGroup") {
    const what = kind === "Course" ? "course" : "start group";
    const racers = store.racersUsing(kind === "Course" ? "course" : "setupgroup_id", id);
    if (racers > 0) return `${racers} ${racers === 1 ? "racer is" : "racers are"} in this ${what}. Move them first.`;
    const groupField = kind === "Course" ? "course" : "startgroup";
    const group = store.documents("ResultGroup").find((g) => g.data[groupField] === id);
    if (group) return `The result group “${group.data.name}” uses this ${what}. Delete that group first.`;
  }
  return null;
}
