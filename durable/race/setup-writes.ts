/**
 * Writing a race's setup as the RaceRoom's single writer: the timing settings and the setup documents
 * (courses, timing points, devices and their credentials, start groups, result formats and groups). Each change is checked whole
 * against its schema and the rest of the race (setup-checks.ts), written in one transaction, and followed by
 * a setup push (every page gets the whole format at the next tick).
 */
import { hashToken, randomToken } from "../../core/auth/tokens";
import type { FieldErrors } from "../../core/entity/field-errors";
import { deletionBlocked } from "../../core/timing/validation";
import { bumpMtimes, initialMtimes } from "../../core/entity/field-mtimes";
import { CATEGORY_GROUPS_NOT_FOR_HEATS, MAX_CATEGORY_GROUPS, type CategoryGroup } from "../../core/timing/category-groups";
import { raceDocumentSchemas, RACE_DOCUMENT_KINDS, type RaceDocumentKind, type StoredDocument } from "../../schema/race/documents";
import { readRaceSettings, settingsChangeReachesResults, type RaceSettings } from "../../schema/race/settings";
import type { raceSetup } from "../../schema/race/tables";
import { needsResync, resyncFreeOrder, withDefaultCourseGroup } from "./free-order-sync";
import type { SaveResult } from "./racer-writes";
import { checkSettingsChange, definedOnly, deletionProblem, documentProblem, fieldErrors } from "./setup-checks";
import type { SetupAuthor, SetupHistory } from "./setup-history";
import type { RaceStore } from "./store";

type SetupRow = typeof raceSetup.$inferSelect;

export interface SetupWritesHost {
  store: RaceStore;
  /** Written in each change's transaction: who changed which field (setup-history.ts). */
  history: SetupHistory;
  transaction<T>(write: () => T): T;
  /** The race's setup row, or null before the room is opened. */
  setupRow(): SetupRow | null;
  writeSettings(settings: RaceSettings, fieldMtimes: Record<string, number>): void;
  /** Called after every write: results are rebuilt and pages get the whole format. */
  setupChanged(): void;
}

const NOT_OPENED = { race: "Race not opened" };
/** The product's own writes (the demo set-up, imports) name no user. */
const SYSTEM: SetupAuthor = { userId: null };

export type CategoryGroupsResult = SaveResult<{ created: number; replaced: number }>;

export interface DeviceCredential {
  deviceId: string;
  /** `<deviceId>.<secret>`: shown once; only the secret's SHA-256 is kept. */
  token: string;
}

export type DeleteResult = { ok: true } | { ok: false; status: 404 | 409; message: string };

export class SetupWrites {
  constructor(private readonly host: SetupWritesHost) {}

  /** Changes timing settings; every field is checked, and nothing is written when one is refused. */
  updateSettings(changes: Record<string, unknown>, author: SetupAuthor = SYSTEM): SaveResult<RaceSettings> {
    const row = this.host.setupRow();
    if (!row) return { ok: false, errors: NOT_OPENED };
    const checked = checkSettingsChange(this.host.store, row.settings, changes);
    if (!checked.ok) return checked;
    const changed = Object.keys(definedOnly(checked.parsed));
    const next = withDefaultCourseGroup(checked.next);
    if (next !== checked.next) changed.push("meta_courses_list");
    const mtimes = { ...row.fieldMtimes };
    const now = Date.now();
    for (const key of changed) mtimes[key] = Math.max(now, (mtimes[key] ?? 0) + 1);
    // Compared as read (defaults filled in), so a default written for the first time is no change.
    const before = readRaceSettings(row.settings);
    const resync = needsResync(next, changed);
    this.host.transaction(() => {
      this.host.history.recordSave("Settings", "race", before as Record<string, unknown>, next as Record<string, unknown>, author, now);
      this.host.writeSettings(next, mtimes);
      if (resync) resyncFreeOrder(this.host.store, next, now);
    });
    if (resync || settingsChangeReachesResults(before, next)) this.host.setupChanged();
    return { ok: true, value: next };
  }

  /** The errors updateSettings would give, without writing. */
  settingsProblems(changes: Record<string, unknown>): FieldErrors | null {
    const row = this.host.setupRow();
    if (!row) return NOT_OPENED;
    const checked = checkSettingsChange(this.host.store, row.settings, changes);
    return checked.ok ? null : checked.errors;
  }

  /**
   * Creates (id null) or changes a document. A change names only the fields it sets; the whole result is
   * checked against the kind's schema, so a document is never stored half-valid.
   */
  saveDocument(kind: RaceDocumentKind, id: string | null, changes: Record<string, unknown>, author: SetupAuthor = SYSTEM): SaveResult<StoredDocument> {
    const store = this.host.store;
    if (!RACE_DOCUMENT_KINDS.includes(kind)) return { ok: false, errors: { kind: "Unknown kind" } };
    const existing = id ? store.document(kind, id) : null;
    if (id && !existing) return { ok: false, errors: { id: "Not found" } };
    const { ordinal, ...fields } = changes;
    const parsed = raceDocumentSchemas[kind].safeParse({ ...(existing?.data ?? {}), ...fields });
    if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error.issues) };
    const data = parsed.data as StoredDocument["data"];
    const problem = documentProblem(store, readRaceSettings(this.host.setupRow()?.settings), kind, data);
    if (problem) return { ok: false, errors: problem };
    const docId = existing?.id ?? crypto.randomUUID();
    const order = typeof ordinal === "number" && Number.isInteger(ordinal) ? ordinal : (existing?.ordinal ?? store.nextOrdinal(kind));
    const now = Date.now();
    const mtimes = existing ? bumpMtimes(store.documentMtimes(docId), Object.keys(fields), now) : initialMtimes(data as Record<string, unknown>, now);
    this.host.transaction(() => {
      this.host.history.recordSave(kind, docId, (existing?.data as Record<string, unknown> | undefined) ?? null, data as Record<string, unknown>, author, now);
      store.putDocument(kind, docId, order, data as never, mtimes);
      // A device's clock offset applies to every read it sent, not only to later ones.
      const offset = (data as { offset?: number }).offset;
      if (kind === "TimingDevice" && existing && offset !== undefined && (existing.data as { offset: number }).offset !== offset) {
        store.reapplyOffset(docId, offset);
      }
    });
    this.host.setupChanged();
    return { ok: true, value: store.document(kind, docId)! };
  }

  /**
   * Writes a format's category groups in one transaction and one results rebuild. A group named like one the
   * format has (ignoring case) replaces its conditions and keeps its id and place, so creating twice never
   * duplicates and pages keep their tabs; the format's other groups stay. Not for heats (timing.md section 2).
   */
  saveCategoryGroups(formatId: string, groups: readonly CategoryGroup[], author: SetupAuthor = SYSTEM): CategoryGroupsResult {
    const store = this.host.store;
    const row = this.host.setupRow();
    if (!row) return { ok: false, errors: NOT_OPENED };
    if (readRaceSettings(row.settings).is_heats) return { ok: false, errors: { form: CATEGORY_GROUPS_NOT_FOR_HEATS } };
    if (!store.document("ResultFormat", formatId)) return { ok: false, errors: { id: "Not found" } };
    if (groups.length === 0) return { ok: false, errors: { form: "No racer has a value to group by yet" } };
    if (groups.length > MAX_CATEGORY_GROUPS)
      return { ok: false, errors: { form: `That makes ${groups.length} groups; at most ${MAX_CATEGORY_GROUPS} at once` } };
    const existing = new Map(
      store
        .documents("ResultGroup")
        .filter((g) => g.data.format === formatId)
        .map((g) => [g.data.name.toLowerCase(), g]),
    );
    const now = Date.now();
    const writes: { old: StoredDocument<"ResultGroup"> | undefined; data: StoredDocument<"ResultGroup">["data"]; fields: string[] }[] = [];
    for (const group of groups) {
      const old = existing.get(group.name.toLowerCase());
      const changes = { format: formatId, name: group.name, criteria_list: group.criteria, course: null, startgroup: null };
      const parsed = raceDocumentSchemas.ResultGroup.safeParse({ ...(old?.data ?? {}), ...changes });
      if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error.issues) };
      writes.push({ old, data: parsed.data, fields: Object.keys(changes) });
    }
    this.host.transaction(() => {
      let ordinal = store.nextOrdinal("ResultGroup");
      for (const { old, data, fields } of writes) {
        const id = old?.id ?? crypto.randomUUID();
        const mtimes = old ? bumpMtimes(store.documentMtimes(id), fields, now) : initialMtimes(data as Record<string, unknown>, now);
        this.host.history.recordSave(
          "ResultGroup",
          id,
          (old?.data as Record<string, unknown> | undefined) ?? null,
          data as Record<string, unknown>,
          author,
          now,
        );
        store.putDocument("ResultGroup", id, old?.ordinal ?? ordinal++, data as never, mtimes);
      }
    });
    this.host.setupChanged();
    const replaced = writes.filter((w) => w.old).length;
    return { ok: true, value: { created: writes.length - replaced, replaced } };
  }

  /**
   * Deletes a document unless something still uses it (deletionProblem); deleting a result format deletes
   * its groups, and a device its credential.
   */
  deleteDocument(kind: RaceDocumentKind, id: string, author: SetupAuthor = SYSTEM): DeleteResult {
    const store = this.host.store;
    const doomed = store.document(kind, id);
    if (!doomed) return { ok: false, status: 404, message: "Not found" };
    const problem = deletionProblem(store, kind, id);
    if (problem) return { ok: false, status: 409, message: problem };
    const now = Date.now();
    this.host.transaction(() => {
      this.host.history.recordDelete(kind, id, doomed.data as Record<string, unknown>, author, now);
      store.deleteDocument(id);
      if (kind === "ResultFormat")
        for (const g of store.documents("ResultGroup"))
          if (g.data.format === id) {
            this.host.history.recordDelete("ResultGroup", g.id, g.data as Record<string, unknown>, author, now);
            store.deleteDocument(g.id);
          }
      if (kind === "TimingDevice") store.deleteCredential(id);
    });
    this.host.setupChanged();
    return { ok: true };
  }

  /** A new credential for a device, replacing any earlier one; the token is returned only now. */
  issueDeviceCredential(deviceId: string): DeviceCredential | null {
    const store = this.host.store;
    if (!store.document("TimingDevice", deviceId)) return null;
    const secret = randomToken(24);
    store.setCredentialHash(deviceId, hashToken(secret), Date.now());
    return { deviceId, token: `${deviceId}.${secret}` };
  }

  /** Whether each device has a credential (never the credential itself). */
  deviceCredentialStates(): Record<string, boolean> {
    const states: Record<string, boolean> = {};
    for (const device of this.host.store.documents("TimingDevice")) states[device.id] = this.host.store.credentialHash(device.id) !== null;
    return states;
  }

  /** Why the race may not be deleted now (a public result format or a visible start list), or null. */
  deletionBlocker(): string | null {
    const settings = readRaceSettings(this.host.setupRow()?.settings);
    return deletionBlocked({
      resultFormats: this.host.store.documents("ResultFormat").map((f) => ({ isPublic: f.data.is_public, isUnlisted: f.data.is_unlisted })),
      startListVisibility: settings.start_list_visibility ?? "hidden",
    });
  }
}
