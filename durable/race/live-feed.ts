/**
 * The live side of a RaceRoom: keeps its results current from the crossing log, and each tick publishes
 * the changed rows once to the race's spectator shards (durable/spectator-shard.ts). Everything a push
 * needs is read from storage (live-push.ts), so a room evicted between a write and its push still pushes
 * it when it wakes. docs/decisions/0023-live-results-across-eviction.md.
 */
import { eq } from "drizzle-orm";
import { openDb, races } from "../../schema/d1";
import type { StoredDocument } from "../../schema/race/documents";
import type { FormatFrame, HeatsFrame, Publication, SpectatorFormat } from "../../schema/wire/race-fanout";
import type { FormatSnapshot, HeatsView, RaceServerMessage } from "../../schema/wire/race-socket";
import { fellField } from "../../schema/wire/window-filter";
import { LivePushStore } from "./live-push";
import { LiveResults, type RaceState } from "./live-results";
import type { RaceStore } from "./store";
import type { SpectatorShard } from "../spectator-shard";

/**
 * Changes wait at most this long, so a burst of reads goes out as one frame (the spec's 50–100 ms). The top
 * of the range: under load every tick costs each spectator socket a send (and a compression), so fewer,
 * larger frames keep the shards' work down; a change after a quiet spell still goes out at once.
 */
export const TICK_MS = 100;
/**
 * A busy race sends fewer, larger frames: after a tick that carried more than BUSY_TICK_ROWS rows (over a
 * thousand changes a second), the next waits BUSY_TICK_MS. Spectators get the same rows at most 0.4 s later,
 * and every shard's sends per second fall fourfold, which is what a big audience costs (decision 0039).
 */
export const BUSY_TICK_ROWS = 100;
export const BUSY_TICK_MS = 400;
/**
 * A flood (FLOOD_TICK_ROWS rows or more in a tick, 2,500 changed rows a second: a mass finish in a large field, or
 * a serverbox uploading its backlog) waits FLOOD_TICK_MS. A racer who changes five times in that second goes out
 * once, so each spectator gets fewer and smaller frames (on a phone, data), and a shard sends less than half as
 * often (decision 0074).
 */
export const FLOOD_TICK_ROWS = 1_000;
export const FLOOD_TICK_MS = 1_000;

/** How long after a tick of `rows` rows the next one waits. */
export function tickWaitAfter(rows: number): number {
  if (rows >= FLOOD_TICK_ROWS) return FLOOD_TICK_MS;
  return rows > BUSY_TICK_ROWS ? BUSY_TICK_MS : TICK_MS;
}
/** An alarm backs the tick timer up: if the object is evicted before its timer fires, the alarm pushes. */
const TICK_BACKSTOP_MS = 2_000;
/**
 * While a race is being timed the room stays in memory through quiet spells: an alarm every KEEP_WARM_MS (under
 * the runtime's idle eviction, 10 s locally and longer on Cloudflare) until WARM_WINDOW_MS after the last read,
 * so the first crossing after a gap finds its results built rather than rebuilding every racer and the whole log
 * (0.6 s for 15,000 racers and 80,000 reads). Warmth is only speed: after a real eviction everything is still
 * pushed (decision 0023). An alarm costs one request; ten minutes of them are 120.
 */
export const KEEP_WARM_MS = 5_000;
export const WARM_WINDOW_MS = 10 * 60_000;
/** At most this many shards: 64 × 32,768 sockets is far beyond any race's audience. */
export const MAX_SHARDS = 64;

export interface LiveFeedHost {
  ctx: DurableObjectState;
  env: Env;
  store: RaceStore;
  raceId(): string | null;
  /** The race read from storage with the crossing log up to `upTo` (all of it when undefined). */
  loadState(upTo?: number): RaceState;
  /** The sprint heats as the bracket pages show them, labelled `version`. */
  heatsView(results: LiveResults, version: number): HeatsView;
}

export class LiveFeed {
  readonly push: LivePushStore;
  private live: LiveResults | null = null;
  private tickTimer: ReturnType<typeof setTimeout> | null = null;
  /** When the alarm this instance set will fire (null: none set since it woke). */
  private alarmAt: number | null = null;
  /** Keep-warm alarms continue until then (in memory: a cold room has nothing to keep warm). */
  private warmUntil = 0;
  private lastTickAt = 0;
  /** Rows the last tick published (in memory: after a wake-up the first tick is a normal one). */
  private lastTickRows = 0;
  /** Snapshots served since the last change (each shard of a big audience asks for the same one). */
  private snapshots = new Map<string, FormatSnapshot>();
  private shardStubs = new Map<number, DurableObjectStub<SpectatorShard>>();

  constructor(private readonly host: LiveFeedHost) {
    this.push = new LivePushStore(host.ctx.storage.sql);
  }

  /** After a wake-up: anything written but never pushed (the room was evicted first) goes out now. */
  resume(): void {
    if (this.host.raceId() && this.push.hasWork(this.host.store.lastSeq())) this.scheduleTick();
  }

  /**
   * The current results. A fresh object builds them at the last published log position, then takes in the
   * reads since, so those racers are still pushed as changes.
   */
  results(): LiveResults {
    if (!this.live) this.live = new LiveResults((upTo) => this.host.loadState(upTo), this.push.read().pushedSeq);
    const newer = this.host.store.assignedCrossingsAfter(this.live.position);
    this.live.addCrossings(newer.crossings, newer.position);
    return this.live;
  }

  /** The results only when already built (a change with nobody having asked needs no engine yet). */
  builtResults(): LiveResults | null {
    return this.live ? this.results() : null;
  }

  /** New reads are in the log. */
  logChanged(): void {
    this.warmUntil = Date.now() + WARM_WINDOW_MS;
    this.snapshots.clear();
    this.scheduleTick();
  }

  /** Racers whose rows changed by an edit; call inside the write's transaction so the mark is durable with it. */
  markRacers(racerIds: Iterable<string>): void {
    this.push.markRacers(racerIds);
  }

  /** The setup changed: results are rebuilt and every page gets the whole format at the next tick. */
  setupChanged(): void {
    this.push.markSnapshot();
    // A setup change may reseed heats too, so the bracket goes out with it.
    this.push.markHeats(Date.now());
    this.live?.reload();
    this.snapshots.clear();
    this.scheduleTick();
  }

  heatsChanged(): void {
    this.push.markHeats(Date.now());
    this.scheduleTick();
  }

  /** Racers changed in place (an edit, a status, a clear): the built results already hold the change. */
  racersChanged(): void {
    this.snapshots.clear();
    this.scheduleTick();
  }

  /** A format as a page renders it, labelled with the version its frames chain from. */
  snapshot(format: StoredDocument<"ResultFormat">): FormatSnapshot {
    const cached = this.snapshots.get(format.id);
    if (cached) return cached;
    const state = this.push.read();
    const snapshot = this.results().snapshot(format, String(state.formatVersions[format.id] ?? 0));
    this.snapshots.set(format.id, snapshot);
    return snapshot;
  }

  heatsVersion(): number {
    return this.push.read().heatsVersion;
  }

  /** The formats spectators may follow (system ones only with staff rights, which the Worker decides). */
  static spectatorFormats(formats: StoredDocument<"ResultFormat">[]): SpectatorFormat[] {
    return formats.map((f) => ({ id: f.id, isSystem: !f.data.is_public && !f.data.is_unlisted }));
  }

  /** A shard passed its target: spread new spectators over enough shards for the audience it implies. */
  async shardLoad(index: number, count: number, target: number): Promise<number> {
    const state = this.push.read();
    if (!Number.isInteger(index) || index < 0 || index >= state.shards) return state.shards;
    // Sockets are placed uniformly, so one shard's count stands for every shard's.
    const wanted = Math.min(MAX_SHARDS, Math.max(state.shards, Math.ceil((count * state.shards) / target) + 1));
    if (wanted === state.shards) return state.shards;
    this.push.setShards(wanted);
    const raceId = this.host.raceId();
    if (raceId) await openDb(this.host.env.DB).update(races).set({ spectatorShards: wanted }).where(eq(races.id, raceId));
    return wanted;
  }

  /** The alarm: the backstop tick, and the next keep-warm alarm while the race is being timed. */
  onAlarm(): void {
    this.alarmAt = null;
    // Through the timer, so a keep-warm alarm in a flood keeps the flood's pace (after an eviction it fires at once).
    if (this.push.hasWork(this.host.store.lastSeq())) this.scheduleTick();
    if (Date.now() < this.warmUntil) this.armAlarm(Date.now() + KEEP_WARM_MS);
  }

  /** Whether keep-warm alarms are still due (read by tests). */
  get keepsWarm(): boolean {
    return Date.now() < this.warmUntil;
  }

  /** Closes the spectators' sockets on every shard (the race was deleted). */
  async closeShards(): Promise<void> {
    const shards = this.push.read().shards;
    await Promise.allSettled(Array.from({ length: shards }, (_, i) => this.shard(i).closeAll()));
  }

  /** Drops what is held in memory and any waiting tick (the race is deleted, or the object is going away). */
  forget(): void {
    if (this.tickTimer !== null) clearTimeout(this.tickTimer);
    this.tickTimer = null;
    this.live = null;
    this.snapshots.clear();
    this.warmUntil = 0;
    this.alarmAt = null;
  }

  // One alarm slot per object: an earlier time replaces a later one, never the other way round.
  private armAlarm(at: number): void {
    if (this.alarmAt !== null && this.alarmAt <= at) return;
    this.alarmAt = at;
    void this.host.ctx.storage.setAlarm(at);
  }

  private scheduleTick(): void {
    this.armAlarm(Date.now() + TICK_BACKSTOP_MS);
    if (this.tickTimer !== null) return;
    // The first change after a quiet spell goes out at once; a burst waits for the rest of its tick.
    const tickMs = tickWaitAfter(this.lastTickRows);
    const wait = Math.max(0, this.lastTickAt + tickMs - Date.now());
    this.tickTimer = setTimeout(() => {
      this.tickTimer = null;
      this.tick();
    }, wait);
  }

  /** Publishes what changed since the last published version, and records it as published. */
  tick(): void {
    this.lastTickAt = Date.now();
    if (!this.host.raceId()) return;
    const state = this.push.read();
    const live = this.results();
    const formats = this.host.store.documents("ResultFormat");
    const version = state.version + 1;
    const formatVersions: Record<string, number> = {};
    let publication: Publication | null = null;
    const framed: string[] = [];
    if (state.snapshotDue) {
      live.takeDelta([]);
      for (const format of formats) formatVersions[format.id] = version;
      publication = { kind: "reset", version: String(version), heats: null };
    } else {
      for (const format of formats) formatVersions[format.id] = state.formatVersions[format.id] ?? 0;
      const delta = live.takeDelta(
        formats.map((f) => f.id),
        this.push.pendingRacers(),
      );
      const frames: FormatFrame[] = [];
      // A tick that found nothing to send (reads of nobody) keeps the pace the last frame set.
      if (delta.size > 0) this.lastTickRows = Math.max(...[...delta.values()].map((d) => d.rows.length));
      for (const [formatId, { rows, fell }] of delta) {
        const from = String(formatVersions[formatId] ?? 0);
        formatVersions[formatId] = version;
        frames.push({
          formatId,
          from,
          version: String(version),
          frame: JSON.stringify({ type: "rows", formatId, from, version: String(version), rows, ...fellField(fell) } satisfies RaceServerMessage),
        });
        framed.push(formatId);
      }
      if (frames.length > 0 || state.heatsDue) publication = { kind: "rows", formats: frames, heats: null };
    }
    const announcer = this.announcerDue(formats, framed, state.snapshotDue, state.pushedSeq, live.position);
    // A precall changes no result row: the announcer screens alone hear of it.
    if (!publication && announcer) publication = { kind: "rows", formats: [], heats: null };
    if (!publication) {
      // Reads of nobody (or that changed no row): recorded as published so a wake-up does not redo them.
      this.push.commit({ version: state.version, pushedSeq: live.position, formatVersions: state.formatVersions });
      return;
    }
    if (state.heatsDue) publication.heats = heatsFrameOf(this.host.heatsView(live, state.heatsVersion));
    if (announcer) publication.announcer = { version, frame: JSON.stringify({ type: "announcer", version: String(version) } satisfies RaceServerMessage) };
    this.push.commit({ version, pushedSeq: live.position, formatVersions });
    this.snapshots.clear();
    this.publish(publication, state.shards);
  }

  /**
   * Whether announcer screens must fetch their view (decision 0045): the race has an announcer format and a
   * precall read came in since the last publication (the log between the two positions, so a room evicted
   * before its tick still tells them), or an announcer format's rows changed, or every format was reset.
   */
  private announcerDue(formats: StoredDocument<"ResultFormat">[], framed: string[], reset: boolean, pushedSeq: number, position: number): boolean {
    const announcerFormats = formats.filter((f) => f.data.is_announcer).map((f) => f.id);
    if (announcerFormats.length === 0) return false;
    return reset || framed.some((id) => announcerFormats.includes(id)) || this.host.store.hasAnnouncerReads(pushedSeq, position);
  }

  // Not awaited: a slow or restarting shard must not hold up the room; it resyncs from the next tick.
  private publish(publication: Publication, shards: number): void {
    for (let i = 0; i < shards; i++) {
      this.shard(i)
        .publish(publication)
        .catch((error: unknown) => console.error(`spectator shard ${i} missed a tick`, error));
    }
  }

  private shard(index: number) {
    let stub = this.shardStubs.get(index);
    if (!stub) {
      const ns = this.host.env.SPECTATOR_SHARD;
      stub = ns.get(ns.idFromName(`${this.host.raceId()}:${index}`));
      this.shardStubs.set(index, stub);
    }
    return stub;
  }
}

function heatsFrameOf(heats: HeatsView): HeatsFrame {
  return { version: heats.version, frame: JSON.stringify({ type: "heats", heats } satisfies RaceServerMessage) };
}
