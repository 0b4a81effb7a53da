import { DurableObject } from "cloudflare:workers";
import type { FieldErrors } from "../core/entity/field-errors";
import type { FieldMtimes } from "../core/entity/field-mtimes";
import type { StageResult } from "../core/timing/multistage";
import type { HeatEntryInput } from "../core/timing/heat-entry";
import type { PackedEntry } from "../core/series/race-entries";
import type { RaceDocumentKind, StoredDocument } from "../schema/race/documents";
import type { RaceChangeResult, RaceEntity } from "../schema/race/entity";
import { readRaceSettings, type RaceSettings } from "../schema/race/settings";
import type { SpectatorFormat } from "../schema/wire/race-fanout";
import type { FormatSnapshot, HeatsView, RaceIdentity } from "../schema/wire/race-socket";
import type { ManualReceipt, RangeReceipt, ReadBatchReceipt } from "../schema/wire/timing-api";
import { RacerWrites, type ImportReply, type SaveResult } from "./race/racer-writes";
import { syncRegistrationEntries, type EntrySync, type EntrySyncReply } from "./race/registration-entries";
import { SetupHistory, type SetupAuthor, type SetupHistoryEntry } from "./race/setup-history";
import { SetupWrites, type CategoryGroupsResult, type DeleteResult, type DeviceCredential } from "./race/setup-writes";
import type { CategoryGroup } from "../core/timing/category-groups";
import { TimingInput, type TimingReply } from "./race/timing-input";
import { LiveFeed } from "./race/live-feed";
import { ResultViews, type RacerPage, type RacerQuery, type RacerSlice, type RacerView, type Slice } from "./race/result-views";
import type { ReportRacer } from "../core/timing/start-list";
import type { AnnouncerView } from "../schema/wire/announcer-view";
import type { ResultsWindow, WindowQuery } from "../schema/wire/results-window";
import type { RacerDetail } from "./race/racer-detail";
import type { RaceState } from "./race/live-results";
import { shardTarget } from "./spectator-shard";
import { RaceHeats, type HeatReply } from "./race/heats";
import * as startOrder from "./race/start-order";
import { RaceStore } from "./race/store";
import { keyedEntries, type KeyedEntry } from "./race/keyed-entries";
import type { StoredRacer } from "../schema/race/engine-input";
import { importStageTimes, stageResultsOf, timedEntityOfRacer, type RacerRecordsDeps } from "./race/racer-records";
import { migrateRaceStorage, raceStateOf, storageVersionOf } from "./race/room-storage";
import { RaceRecord, type RaceSetupView } from "./race/race-record";

export type { DeviceCredential, FieldErrors, RaceSetupView, RacerDetail, RacerPage, RacerQuery, RacerSlice, RacerView, SaveResult, TimingReply };

/**
 * One per race (`idFromName(raceId)`): the single writer of that race's timing data, and the hub of its
 * live sockets. Sockets are hibernatable, so an idle race costs nothing while spectators stay connected.
 */
export class RaceRoom extends DurableObject<Env> {
  private readonly record: RaceRecord;
  private readonly store: RaceStore;
  private readonly setupHistoryLog: SetupHistory;
  private readonly feed: LiveFeed;
  private readonly views: ResultViews;
  private readonly timing: TimingInput;
  private readonly racerWrites: RacerWrites;
  private readonly setupWrites: SetupWrites;
  private readonly heats: RaceHeats;
  /** Tells one life of this object from the next (an eviction makes a new one). */
  private readonly instance = crypto.randomUUID();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.record = new RaceRecord(ctx, env, () => this.feed.setupChanged());
    this.store = new RaceStore(ctx.storage.sql);
    this.setupHistoryLog = new SetupHistory(ctx.storage.sql);
    this.heats = new RaceHeats(this.store, () => readRaceSettings(this.record.row()?.settings));
    this.feed = new LiveFeed({
      ctx,
      env,
      store: this.store,
      raceId: () => this.record.view()?.id ?? null,
      loadState: (upTo) => this.raceState(upTo),
      heatsView: (live, version) => this.heats.view(version, (racerId) => live.result(racerId)?.time ?? null),
    });
    this.views = new ResultViews({ store: this.store, feed: this.feed, sport: () => this.record.row()?.sport ?? null });
    this.timing = new TimingInput({
      store: this.store,
      feed: this.feed,
      transaction: (write) => ctx.storage.transactionSync(write),
      race: () => this.record.times(),
      settings: () => this.record.row()?.settings,
    });
    this.racerWrites = new RacerWrites({
      store: this.store,
      feed: this.feed,
      transaction: (write) => ctx.storage.transactionSync(write),
      settings: () => readRaceSettings(this.record.row()?.settings),
    });
    this.setupWrites = new SetupWrites({
      store: this.store,
      history: this.setupHistoryLog,
      transaction: (write) => ctx.storage.transactionSync(write),
      setupRow: () => this.record.row() ?? null,
      writeSettings: (settings, fieldMtimes) => this.record.writeSettings(settings, fieldMtimes),
      setupChanged: () => this.feed.setupChanged(),
    });
    ctx.blockConcurrencyWhile(async () => {
      migrateRaceStorage(ctx);
      // Spectators follow the race on its shards now; a socket left here from before is sent there.
      for (const ws of ctx.getWebSockets()) ws.close(1012, "reconnect");
      this.feed.resume();
    });
  }

  /** Records which race this object holds; the first call wins and later calls return what is stored. */
  async open(identity: RaceIdentity): Promise<RaceSetupView> {
    return this.record.open(identity);
  }

  /** The Race as the data service shows it (API field names), or null before `open`. */
  async raceEntity(): Promise<RaceEntity | null> {
    return this.record.entity();
  }

  /** Changes Race fields as their single writer (race-record.ts); stale fields are refused and nothing is written. */
  async changeRace(changes: Record<string, unknown>, baseMtimes: FieldMtimes | null): Promise<RaceChangeResult | null> {
    return this.record.change(changes, baseMtimes);
  }

  /** Forgets the race (after its catalogue row is deleted): storage is wiped and spectators are let go. */
  async discard(): Promise<void> {
    await this.feed.closeShards();
    this.feed.forget();
    await this.ctx.storage.deleteAll();
    // deleteAll drops the tables too; recreate them so this object answers "no race" rather than failing.
    migrateRaceStorage(this.ctx);
  }

  /** The backstop of the live tick, and the retry of a catalogue write that failed (D1 unreachable for a moment). */
  override async alarm(): Promise<void> {
    this.feed.onAlarm();
    await this.record.retryCatalogue();
  }

  // ---- Race settings (timing.md section 3 fields beyond the catalogue) ----

  /** The race's timing settings with the spec's defaults filled in, or null before `open`. */
  async settings(): Promise<RaceSettings | null> {
    const row = this.record.row();
    return row ? readRaceSettings(row.settings) : null;
  }

  /** Changes timing settings; every field is checked, and nothing is written when one is refused. */
  async updateSettings(changes: Record<string, unknown>, author?: SetupAuthor): Promise<SaveResult<RaceSettings>> {
    return this.setupWrites.updateSettings(changes, author);
  }

  /** The errors updateSettings would give for `changes`, without writing: a page checks before it writes anything else. */
  async settingsProblems(changes: Record<string, unknown>): Promise<FieldErrors | null> {
    return this.setupWrites.settingsProblems(changes);
  }

  // ---- Documents: courses, timing points, devices, start groups, result formats and groups, reports ----

  /** Every document of a kind, in ordinal order. */
  async documents<K extends RaceDocumentKind>(kind: K): Promise<StoredDocument<K>[]> {
    return this.store.documents(kind);
  }

  /** Creates (id null) or changes a document, checked whole against its kind's schema (setup-writes.ts). */
  async saveDocument(kind: RaceDocumentKind, id: string | null, changes: Record<string, unknown>, author?: SetupAuthor): Promise<SaveResult<StoredDocument>> {
    return this.setupWrites.saveDocument(kind, id, changes, author);
  }

  /** Writes a format's category groups at once, replacing same-named ones (setup-writes.ts); not for heats. */
  async saveCategoryGroups(formatId: string, groups: CategoryGroup[], author?: SetupAuthor): Promise<CategoryGroupsResult> {
    return this.setupWrites.saveCategoryGroups(formatId, groups, author);
  }

  /** Deletes a document unless something still uses it (409, saying what); a format takes its groups along. */
  async deleteDocument(kind: RaceDocumentKind, id: string, author?: SetupAuthor): Promise<DeleteResult> {
    return this.setupWrites.deleteDocument(kind, id, author);
  }

  /** Who changed the setup, newest first (setup-history.ts). */
  async setupHistory(before?: { at: number; id: string }): Promise<SetupHistoryEntry[]> {
    return this.setupHistoryLog.list(before);
  }

  /** What the keypads and the range-data device entered, newest first (keyed-entries.ts). */
  async keyedEntries(): Promise<KeyedEntry[]> {
    return keyedEntries(this.store);
  }

  /** A new credential for a device, replacing any earlier one; the token is returned only now. */
  async issueDeviceCredential(deviceId: string): Promise<DeviceCredential | null> {
    return this.setupWrites.issueDeviceCredential(deviceId);
  }

  /** Whether each device has a credential (never the credential itself). */
  async deviceCredentialStates(): Promise<Record<string, boolean>> {
    return this.setupWrites.deviceCredentialStates();
  }

  // ---- Racers ----

  /** A slice of the field by handle (workers/services/race-racers.ts gathers the whole of it). */
  async racerSlice(after: number, limit: number): Promise<RacerSlice> {
    return this.views.racerSlice(after, limit);
  }

  /** A slice of the field as the reports read it (start list, chip rack): a few fields a racer, not documents. */
  async reportRacerSlice(after: number, limit: number, countryKey: string | null): Promise<Slice<ReportRacer>> {
    return this.views.reportRacerSlice(after, limit, countryKey);
  }

  /** One page of the racers list, searched and paged in the room (result-views.ts says why). */
  async racerPage(query: RacerQuery): Promise<RacerPage> {
    return this.views.racerPage(query);
  }

  /** Every racer's id, bib and chip: one RPC for a field of any size (the views of `racers` pass RPC's 32 MiB near 40,000 racers). */
  async racerTags(): Promise<{ id: string; bib: number | null; chip: string | null }[]> {
    return this.store.racerTags();
  }

  /** A racer by id, or by the bib they wear (a timer at the line knows the bib). */
  async racer(key: string | { bib: number }): Promise<StoredRacer | null> {
    const id = typeof key === "string" ? key : this.store.racerIdByBib(key.bib);
    return id === null ? null : this.store.racer(id);
  }

  /** Creates (id null; as `newId`, a form's one-time id, when given) or changes a racer; a bib or chip another racer holds is refused. */
  async saveRacer(id: string | null, changes: Record<string, unknown>, newId?: string): Promise<SaveResult<StoredRacer>> {
    return this.racerWrites.save(id, changes, newId);
  }

  /** Adds many racers at once (a CSV import): none is written unless every row is valid. */
  async importRacers(rows: Record<string, unknown>[]): Promise<ImportReply> {
    return this.racerWrites.importRows(rows);
  }

  async deleteRacer(id: string): Promise<boolean> {
    return this.racerWrites.remove(id);
  }

  /** Racers from a registration form's entries: created, updated or removed by their imported_from (registration-entries.ts). */
  async syncRegistrationEntries(sync: EntrySync): Promise<EntrySyncReply> {
    return syncRegistrationEntries(this.racerWrites, this.store, readRaceSettings(this.record.row()?.settings), sync);
  }

  /** "Clear all times" for a racer: its reads are set aside (kept in the log), its range data removed and its results reset. */
  async clearTimes(racerId: string): Promise<number> {
    return this.racerWrites.clearTimes(racerId);
  }

  /** "Clear all times" for the whole race (a rehearsal or a restarted demo): every read is set aside, none deleted. */
  async clearAllTimes(): Promise<number> {
    return this.racerWrites.clearAllTimes();
  }

  /** This race as a stage before another: each racer's bib, person, result time and the stages before it. */
  async stageResults(): Promise<StageResult[]> {
    return stageResultsOf(this.store, this.feed.results());
  }

  /** Brings in the earlier stages from the stage before's results (durable/race/racer-records.ts). */
  async importStageTimes(previous: StageResult[]): Promise<SaveResult<{ matched: number; unmatched: number }>> {
    return importStageTimes(this.records(), previous);
  }

  /** A racer's TimedEntity (run 1, round 1) in the spec's storage names, as the data API shows it. */
  async timedEntity(racerId: string): Promise<Record<string, unknown> | null> {
    return timedEntityOfRacer(this.records(), racerId);
  }

  private records(): RacerRecordsDeps {
    return {
      store: this.store,
      settingsRow: () => this.record.row() ?? null,
      results: () => this.feed.results(),
      writeRacers: (items) => this.racerWrites.write(items),
    };
  }

  /** A racer's reads, newest last, for the racer page. */
  async racerCrossings(racerId: string) {
    return this.store.crossingsOfRacer(racerId);
  }

  /** The latest reads of the race, newest first, for the timing page. */
  async recentCrossings(limit = 50) {
    return this.store.recentCrossings(Math.min(Math.max(limit, 1), 500));
  }

  /** How much the race holds, for the admin overview and benchmarks. */
  async counts(): Promise<{ racers: number; crossings: number }> {
    return { racers: this.store.racerCount(), crossings: this.store.crossingCount() };
  }

  // ---- The timing API ----

  /** A device's batch of reads (see TimingInput.ingest): written whole before the acknowledgement leaves. */
  async ingest(credential: string, body: unknown): Promise<TimingReply<ReadBatchReceipt>> {
    return this.timing.ingest(credential, body);
  }

  /** Reads a serverbox forwards for one of the race's devices; the Worker checked the box (decision 0055). */
  async ingestForDevice(deviceId: string, body: unknown): Promise<TimingReply<ReadBatchReceipt>> {
    return this.timing.ingestForDevice(deviceId, body);
  }

  /** Keypad entries by a signed-in timer; each entry's key makes a retried send harmless. */
  async manualEntries(userId: string, body: unknown): Promise<TimingReply<ManualReceipt>> {
    return this.timing.manualEntries(userId, body);
  }

  /** Range data from the race's range-data device (biathlon). */
  async rangeEntries(credential: string, body: unknown): Promise<TimingReply<RangeReceipt>> {
    return this.timing.rangeEntries(credential, body);
  }

  /** Range data a serverbox forwards for the race's range-data device; the Worker checked the box (decision 0067). */
  async rangeEntriesForDevice(deviceId: string, body: unknown): Promise<TimingReply<RangeReceipt>> {
    return this.timing.rangeEntriesForDevice(deviceId, body);
  }

  // ---- Start order: seeding, start times, bibs ----

  /** Seeds the racers of one start group (every group when null) with the group's seed function (ranking points: decision 0054). */
  async seed(startGroupId: string | null, ranking: startOrder.SeedRanking | null = null): Promise<SaveResult<startOrder.SeedSummary>> {
    return this.startOrderChange((room) => startOrder.seedStartGroups(room, startGroupId, ranking?.points ?? null, ranking?.higherFirst ?? false));
  }

  /** Assigns start times to every start group and its racers; groups are renumbered by their first start. */
  async assignStartTimes(): Promise<SaveResult<startOrder.StartTimesSummary>> {
    return this.startOrderChange((room) => startOrder.assignStartTimes(room));
  }

  /** Numbers the racers of one start group (every group when null) in start order, skipping missing and reserved bibs. */
  async assignBibs(startGroupId: string | null): Promise<SaveResult<startOrder.BibSummary>> {
    return this.startOrderChange((room) => startOrder.assignBibsTo(room, startGroupId));
  }

  // Results and sockets follow a start order change like any other setup change (durable/race/start-order.ts).
  private startOrderChange<T>(run: (room: startOrder.StartOrderRoom) => SaveResult<T>): SaveResult<T> {
    return startOrder.runStartOrderChange({ ctx: this.ctx, record: this.record, store: this.store, onChange: () => this.feed.setupChanged() }, run);
  }

  // ---- Results ----

  /** The result formats, for pages that list them and for access checks. */
  async formats(): Promise<StoredDocument<"ResultFormat">[]> {
    return this.store.documents("ResultFormat");
  }

  /** One format's current results, as whole-format pages (and spectator shards) render them; null when it is gone. */
  async snapshot(formatId: string): Promise<FormatSnapshot | null> {
    return this.views.snapshot(formatId);
  }

  /** A format's results as a points series scores them (workers/services/series-standings.ts); null when it is gone. */
  async seriesEntries(formatId: string, categories: string[]): Promise<PackedEntry[] | null> {
    return this.views.seriesEntries(formatId, categories);
  }

  /** A page of one format's results (one group, one page of rows), as the results page renders it. */
  async resultsWindow(formatId: string, query: WindowQuery): Promise<ResultsWindow | null> {
    return this.views.window(formatId, query);
  }

  /** The announcer screen of an announcer format, as of now (durable/race/announcer.ts); null for any other format. */
  async announcerView(formatId: string): Promise<AnnouncerView | null> {
    return this.views.announcerView(formatId, Date.now());
  }

  /** One racer's page: their row and standings in the first of `formatIds` that shows them, or null (durable/race/racer-detail.ts). */
  async racerDetail(racerId: string, formatIds: string[]): Promise<RacerDetail | null> {
    return this.views.racerDetail(racerId, formatIds);
  }

  // ---- Spectator shards (durable/spectator-shard.ts) ----

  /** The formats a spectator may follow, for a shard checking a new socket. */
  async spectatorFormats(): Promise<SpectatorFormat[]> {
    return LiveFeed.spectatorFormats(this.store.documents("ResultFormat"));
  }

  /** A format (the wanted one, else the first public) and its frames' version, for shards and series; null if gone. */
  async scoredFormat(wanted: string | null): Promise<{ formatId: string; version: string } | null> {
    return this.views.scoredFormat(wanted);
  }

  /** A shard passed its target: the race spreads new spectators over more shards. Returns the shard count. */
  async shardLoad(index: number, count: number): Promise<number> {
    return this.feed.shardLoad(index, count, shardTarget(this.env));
  }

  /** Publishes what is waiting now instead of at the next tick (tests and benchmarks). */
  async flushLive(): Promise<void> {
    this.feed.tick();
  }

  /** The published version and log position, as storage holds them, and which instance of this object answered. */
  async liveState() {
    return { ...this.feed.push.read(), instance: this.instance };
  }

  /** Resets this object as an eviction would (development only: the Worker's /_dev/demo-race decides who may). */
  async evict(): Promise<void> {
    this.ctx.abort("evicted on request");
  }

  // ---- Sprint heats ----

  /** Every seeded start group's bracket, as the heat pages show it. */
  async heatsView(): Promise<HeatsView> {
    return this.heats.view(this.feed.heatsVersion(), (racerId) => this.feed.results().result(racerId)?.time ?? null);
  }

  /** Seeds a start group's heats from its qualifier results (see RaceHeats.seedFromQualifier). */
  async seedHeats(startGroupId: string, formatKey: string | null): Promise<HeatReply> {
    const live = this.feed.results();
    return this.heatChange(() => this.heats.seedFromQualifier(startGroupId, (racerId) => live.result(racerId), formatKey, Date.now()));
  }

  /** A timer's finish order (and times, ties and statuses) for one heat. */
  async saveHeatResult(heatId: string, input: HeatEntryInput): Promise<HeatReply> {
    return this.heatChange(() => this.heats.saveResult(heatId, input, Date.now()));
  }

  async clearHeatResult(heatId: string): Promise<HeatReply> {
    return this.heatChange(() => this.heats.clearResult(heatId, Date.now()));
  }

  /** Runs a heat change in one transaction; the new bracket goes to every page following the heats at the next tick. */
  private heatChange(change: () => HeatReply): HeatReply {
    return this.ctx.storage.transactionSync(() => {
      const result = change();
      if (result.ok) this.feed.heatsChanged();
      return result;
    });
  }

  /** Why the race may not be deleted now (a public result format or a visible start list), or null. */
  async deletionBlocker(): Promise<string | null> {
    return this.setupWrites.deletionBlocker();
  }

  /** The race this object holds, or null before `open`. */
  async getSetup(): Promise<RaceSetupView | null> {
    return this.record.view();
  }

  /** Names what the racer lists show now: a cached start list of another revision is stale. */
  async listRevision(): Promise<number> {
    return this.store.listRevision();
  }

  /** The schema version of this object's storage. */
  async storageVersion(): Promise<number> {
    return storageVersionOf(this.ctx);
  }

  // ---- Internals ----

  /** The race as stored, with the crossing log up to `upTo` (all of it when undefined), for the results. */
  private raceState(upTo?: number): RaceState {
    const row = this.record.row();
    if (!row) throw new Error("Race not opened");
    return raceStateOf(this.store, row, upTo);
  }
}
