import { DurableObject } from "cloudflare:workers";
import { raceClientMessageSchema, type RaceServerMessage, type ResultRow } from "../schema/wire/race-socket";
import {
  ANNOUNCER_TAG,
  formatTag,
  HEATS_TAG,
  patchTag,
  RACE_TAG,
  SHARD_HEADERS,
  type FormatFrame,
  type Publication,
  type SpectatorFormat,
} from "../schema/wire/race-fanout";
import { enqueuePublication } from "../schema/wire/race-fanout-merge";
import { packFrame } from "../schema/wire/race-frame-pack";
import { patchRows } from "../schema/wire/race-row-patch";
import { fellField, rowsForWindow, type WindowAllMessage, type WindowFilterMessage } from "../schema/wire/window-filter";
import { FrameHistory, lengthOf, wireFor, type HistoryFrame, type WireFrame } from "./frame-history";
import { closeQuietly, send, sendInSlices, sendRaw } from "./socket-send";
import { applyRows, cacheOf, type CachedFormat } from "./format-copy";
import { WindowFilters } from "./window-filters";

/** Missed frames up to this size are sent as they are, without building the snapshot to compare with. */
const SMALL_CATCH_UP_BYTES = 256 * 1024;

/** Sockets one shard aims to hold before the race adds another (Cloudflare allows 32,768 per object). */
export const DEFAULT_SHARD_TARGET = 5_000;

/** What each socket remembers across hibernation, kept in its attachment. */
interface SpectatorAttachment {
  connectedAt: number;
  formatId: string | null;
  heats: boolean;
  /** A paged results page: sent `refresh` instead of the whole format. */
  windowed: boolean;
  /** The page it shows, once it said (decision 0085): it is sent only the rows that can change that page. */
  filter: WindowFilterMessage | null;
}

/**
 * One shard of a race's audience (`idFromName("<raceId>:<n>")`): holds up to a few thousand hibernating
 * spectator sockets and forwards each tick the RaceRoom publishes, so the room's work per tick does not
 * grow with the audience. The version each format's sockets hold is kept in storage (table shard_state):
 * a shard that wakes with a gap sends snapshots instead of frames that would not follow.
 */
export class SpectatorShard extends DurableObject<Env> {
  private raceId: string | null = null;
  private index = 0;
  /** Per format, the version its sockets hold (persisted). */
  private versions: Record<string, string> = {};
  private cache = new Map<string, CachedFormat>();
  private formats: Map<string, SpectatorFormat> | null = null;
  private heats: { version: number; wire: WireFrame } | null = null;
  /** Publications and connections are handled one at a time, in arrival order. */
  private queue: Promise<unknown> = Promise.resolve();
  private reportedLoad = 0;
  /** Publications not sent yet (in memory: one lost with an eviction is a gap, and a gap gets a snapshot). */
  private waiting: Publication[] = [];
  /** Frames forwarded lately, for sockets that reconnect after a short gap (in memory: without it, a snapshot). */
  private readonly history = new FrameHistory();
  private readonly filters = new WindowFilters((ws) => attachmentOf(ws).filter);
  /**
   * Sockets held, counted once per wake-up and kept by accepts and closes: walking every socket on each connection
   * made an audience's growth quadratic (a fifth of the thread while 10,000 spectators connected). Null: count again.
   */
  private socketCount: number | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('{"type":"ping"}', '{"type":"pong"}'));
    const sql = ctx.storage.sql;
    sql.exec(
      "CREATE TABLE IF NOT EXISTS shard_state (id INTEGER PRIMARY KEY CHECK (id = 1), race_id TEXT NOT NULL, shard INTEGER NOT NULL, versions TEXT NOT NULL)",
    );
    const row = sql.exec<{ race_id: string; shard: number; versions: string }>("SELECT race_id, shard, versions FROM shard_state").toArray()[0];
    if (row) {
      this.raceId = row.race_id;
      this.index = row.shard;
      this.versions = JSON.parse(row.versions) as Record<string, string>;
    }
  }

  /** Accepts a spectator socket forwarded by the Worker, which has checked the race is visible to the caller. */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("Expected a WebSocket upgrade", { status: 426 });
    const raceId = request.headers.get(SHARD_HEADERS.raceId);
    if (!raceId) return new Response("No race", { status: 400 });
    return this.serially(() => this.acceptSpectator(request, raceId));
  }

  /**
   * A tick from the RaceRoom: forwards each format's frame to the sockets following it. Ticks that arrive while
   * the shard is still sending wait merged (race-fanout-merge.ts), so a shard behind its room catches up with
   * one send per socket instead of working through a backlog.
   */
  async publish(publication: Publication): Promise<void> {
    this.waiting = enqueuePublication(this.waiting, publication);
    await this.serially(() => this.sendWaiting());
  }

  /** Closes every socket (the race was deleted). */
  async closeAll(): Promise<void> {
    for (const ws of this.ctx.getWebSockets()) closeQuietly(ws, 1000, "race deleted");
    this.socketCount = null;
  }

  /** How many sockets this shard holds. */
  async connectionCount(): Promise<number> {
    return this.connections();
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const text = typeof message === "string" ? message : new TextDecoder().decode(message);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return send(ws, { type: "error", message: "Messages must be JSON" });
    }
    const parsed = raceClientMessageSchema.safeParse(json);
    if (!parsed.success) return send(ws, { type: "error", message: "Unknown message" });
    const data = parsed.data;
    if (data.type === "window" || data.type === "window-all") await this.serially(() => this.takeWindow(ws, data));
    else if (data.type === "ping") send(ws, { type: "pong" });
    else send(ws, { type: "info", race_id: this.raceId ?? "", connections: this.connections() });
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    if (this.socketCount !== null) this.socketCount = Math.max(0, this.socketCount - 1);
    // 1005 and 1006 are reserved: they describe a close but may not be sent in one.
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // Already closed by the peer.
    }
  }

  // A socket that failed may close without a close event: count again when next asked.
  override async webSocketError(): Promise<void> {
    this.socketCount = null;
  }

  // ---- Internals ----

  private async sendWaiting(): Promise<void> {
    for (let publication = this.waiting.shift(); publication; publication = this.waiting.shift()) {
      if (publication.kind === "reset") {
        this.formats = null;
        this.cache.clear();
        this.history.forgetAll();
        for (const formatId of this.followedFormats()) await this.resync(formatId);
      } else {
        for (const frame of publication.formats) await this.forward(frame);
      }
      if (publication.heats) await this.sendHeats(publication.heats);
      if (publication.announcer) for (const ws of this.ctx.getWebSockets(ANNOUNCER_TAG)) sendRaw(ws, publication.announcer.frame);
      this.saveState();
    }
  }

  private connections(): number {
    this.socketCount ??= this.ctx.getWebSockets().length;
    return this.socketCount;
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private room() {
    return this.env.RACE_ROOM.get(this.env.RACE_ROOM.idFromName(this.raceId!));
  }

  private async acceptSpectator(request: Request, raceId: string): Promise<Response> {
    if (this.raceId === null) {
      this.raceId = raceId;
      this.index = Number(request.headers.get(SHARD_HEADERS.index) ?? 0);
      this.saveState();
    }
    const url = new URL(request.url);
    const formatId = url.searchParams.get("format");
    const followsHeats = url.searchParams.get("heats") === "1";
    // A paged results page holds one page of rows: it takes frames, and fetches its page again instead of a snapshot.
    const windowed = formatId !== null && url.searchParams.get("window") === "1";
    // The announcer screen follows no format's rows: it is told when to fetch its view. Race staff only.
    const announcer = formatId === null && url.searchParams.get("announcer") === "1";
    if (announcer && request.headers.get(SHARD_HEADERS.staff) !== "1") return new Response("No such result format", { status: 404 });
    if (formatId) {
      const format = (await this.formatList()).get(formatId);
      // System formats are for race staff: the Worker says whether this caller is.
      if (!format || (format.isSystem && request.headers.get(SHARD_HEADERS.staff) !== "1")) return new Response("No such result format", { status: 404 });
    }
    // A paged page needs only the version its frames chain from; the whole format is fetched for whole-format pages.
    const cached = formatId && !windowed ? await this.cachedFormat(formatId) : null;
    const version = formatId ? (windowed ? await this.pagedVersion(formatId) : (cached?.snapshot.version ?? null)) : null;
    if (formatId && version === null) return new Response("No such result format", { status: 404 });
    const heats = followsHeats ? await this.heatsFrame() : null;
    // A socket holding the whole format may take changes to its rows instead of whole rows (decision 0059).
    const patches = formatId !== null && !windowed && url.searchParams.get("patch") === "1";
    // Counted before the accept, which the count would otherwise already include.
    const connections = this.connections() + 1;
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    const tag = formatId ? formatTag(formatId) : announcer ? ANNOUNCER_TAG : followsHeats ? HEATS_TAG : RACE_TAG;
    this.ctx.acceptWebSocket(server, patches ? [tag, patchTag(formatId)] : [tag]);
    server.serializeAttachment({ connectedAt: Date.now(), formatId, heats: followsHeats, windowed, filter: null } satisfies SpectatorAttachment);
    const name = decodeURIComponent(request.headers.get(SHARD_HEADERS.name) ?? "");
    this.socketCount = connections;
    send(server, { type: "hello", race_id: raceId, name, server_time: Date.now(), connections, ...(version !== null ? { version } : {}) });
    // A page that rendered (or last saw) this version needs nothing more; one a little behind gets the frames it
    // missed; any other gets the whole format.
    const since = url.searchParams.get("since");
    if (cached && since !== cached.snapshot.version) for (const wire of await this.catchUp(cached, since, patches)) sendRaw(server, wire);
    if (heats) sendRaw(server, heats.wire);
    await this.reportLoad(connections);
    return new Response(null, { status: 101, webSocket: client });
  }

  /**
   * A paged page says what it shows: it is sent only the rows that can change it from now on, and the rows its
   * old filter held back since its page was fetched (or `refresh` when this shard no longer has them).
   */
  private async takeWindow(ws: WebSocket, message: WindowFilterMessage | WindowAllMessage): Promise<void> {
    const attachment = attachmentOf(ws);
    if (!attachment.windowed || attachment.formatId !== message.formatId) return;
    // A page that takes every row (a search) after one that had a filter: nothing held back is owed otherwise.
    if (message.type === "window-all" && attachment.filter === null) return;
    let filter = message.type === "window" ? message : null;
    try {
      ws.serializeAttachment({ ...attachment, filter } satisfies SpectatorAttachment);
    } catch {
      // Too large to keep across hibernation: the page takes every row, and the old page's filter must not stay.
      filter = null;
      ws.serializeAttachment({ ...attachment, filter } satisfies SpectatorAttachment);
    }
    this.filters.set(ws, filter);
    const version = this.versions[message.formatId];
    if (version === undefined || !(Number(message.version) < Number(version))) return;
    const owed = this.filters.rowsSince(message.formatId, message.version, version, filter);
    if (owed === null) return sendRaw(ws, JSON.stringify({ type: "refresh", formatId: message.formatId, version } satisfies RaceServerMessage));
    send(ws, { type: "window-rows", formatId: message.formatId, from: message.version, version, rows: owed.rows, ...fellField(owed.fell) });
  }

  /** Forwards one format's frame, or resends the whole format when this shard missed one. */
  private async forward(frame: FormatFrame): Promise<void> {
    const sockets = this.ctx.getWebSockets(formatTag(frame.formatId));
    if (sockets.length === 0) {
      delete this.versions[frame.formatId];
      this.cache.delete(frame.formatId);
      this.history.forget(frame.formatId);
      this.filters.forget(frame.formatId);
      return;
    }
    const held = this.versions[frame.formatId];
    if (held !== undefined && Number(held) >= Number(frame.version)) return;
    if (held !== frame.from) return this.resync(frame.formatId);
    const cached = this.cache.get(frame.formatId);
    // Patches are changes to the rows this shard last sent, so they need its copy of them at `from`.
    const current = cached !== undefined && cached.snapshot.version === frame.from;
    const patchers = current ? this.ctx.getWebSockets(patchTag(frame.formatId)) : [];
    const patched = new Set(patchers);
    const { plain, pages } = this.filters.split(patched.size === 0 ? sockets : sockets.filter((ws) => !patched.has(ws)));
    const parsed = cached || pages.size > 0 ? (JSON.parse(frame.frame) as RowsMessage) : null;
    const rows = parsed?.rows ?? null;
    // The history keeps what was sent, for whole-format sockets that reconnect (paged ones fetch their page).
    const sent: HistoryFrame = { from: frame.from, version: frame.version, rowsWire: null, patchWire: null };
    if (patchers.length > 0) {
      const patch = patchRows(cached!.rows, rows!);
      const message = { type: "patch", formatId: frame.formatId, from: frame.from, version: frame.version, ...patch } satisfies RaceServerMessage;
      sent.patchWire = await packFrame(JSON.stringify(message));
      await sendInSlices(patchers, sent.patchWire);
    }
    if (plain.length > 0) {
      sent.rowsWire = await packFrame(frame.frame);
      await sendInSlices(plain, sent.rowsWire);
    }
    if (pages.size > 0) {
      this.filters.record(frame.formatId, frame.from, frame.version, rows!, parsed!.fell);
      // A page is sent nothing when nothing can change it: most ticks of a large race, for page 1 (each send costs
      // the shard about as much as its bytes). What it is sent covers everything it was not.
      for (const page of pages.values()) {
        const relevant = rowsForWindow(page.filter, rows!, parsed!.fell);
        if (relevant.rows.length === 0) continue;
        const message = {
          type: "window-rows",
          formatId: frame.formatId,
          from: frame.from,
          version: frame.version,
          rows: relevant.rows,
          ...fellField(relevant.fell),
        } satisfies RaceServerMessage;
        await sendInSlices(page.sockets, await packFrame(JSON.stringify(message)));
      }
    }
    this.versions[frame.formatId] = frame.version;
    this.history.record(frame.formatId, sent);
    if (cached && rows) this.advanceCopy(frame, cached, rows);
    // A shard that woke without its copy (evicted in a quiet spell, which is most of a race) fetches one, so its
    // patch sockets get changes again from the room's next frame rather than whole rows until a page connects.
    if (!this.cache.has(frame.formatId) && this.ctx.getWebSockets(patchTag(frame.formatId)).length > 0) {
      const snapshot = await this.room().snapshot(frame.formatId);
      if (snapshot) this.cache.set(frame.formatId, cacheOf(snapshot));
    }
  }

  /**
   * The copy after a frame from `from` to `version`. A copy at `from` takes the rows. So does a copy fetched while
   * the frame was on its way (between `from` and `version`): the frame holds every racer that changed since `from`
   * at `version`, and the others are the same at both. A copy older than `from` missed frames and is dropped; a
   * newer one waits for the frames to reach it.
   */
  private advanceCopy(frame: FormatFrame, cached: CachedFormat, rows: readonly ResultRow[]): void {
    const at = Number(cached.snapshot.version);
    if (cached.snapshot.version === frame.from || (Number(frame.from) < at && at <= Number(frame.version))) applyRows(cached, rows, frame.version);
    else if (at < Number(frame.from)) this.cache.delete(frame.formatId);
  }

  /** Sends a fresh snapshot to every socket following the format (it changed shape, or frames were missed). */
  private async resync(formatId: string): Promise<void> {
    this.cache.delete(formatId);
    this.history.forget(formatId);
    this.filters.forget(formatId);
    const sockets = this.ctx.getWebSockets(formatTag(formatId));
    // Paged pages only are told to fetch their page again: the whole format is not fetched for nobody.
    if (sockets.every((ws) => attachmentOf(ws).windowed))
      return this.refreshPaged(formatId, sockets, (await this.room().scoredFormat(formatId))?.version ?? null);
    const snapshot = await this.room().snapshot(formatId);
    if (!snapshot) {
      // The format was deleted or hidden: its pages have nothing left to follow.
      for (const ws of sockets) closeQuietly(ws, 4404, "result format removed");
      this.socketCount = null;
      delete this.versions[formatId];
      return;
    }
    const cached = cacheOf(snapshot);
    this.cache.set(formatId, cached);
    this.versions[formatId] = snapshot.version;
    await this.sendSnapshot(cached, sockets);
  }

  /** The whole format to the sockets that hold it whole; paged pages are told to fetch their page again. */
  private async sendSnapshot(cached: CachedFormat, sockets: WebSocket[]): Promise<void> {
    const refresh = JSON.stringify({ type: "refresh", formatId: cached.snapshot.formatId, version: cached.snapshot.version } satisfies RaceServerMessage);
    const paged = sockets.map((ws) => attachmentOf(ws).windowed);
    const whole = paged.includes(false) ? await this.snapshotFrame(cached) : null;
    sockets.forEach((ws, i) => sendRaw(ws, paged[i] || whole === null ? refresh : whole));
  }

  /**
   * The version a new paged socket chains from. While every socket of the format on this shard is paged, only the
   * version is asked for (a 27,000-racer format is tens of megabytes); with whole-format sockets here, the cache.
   */
  private async pagedVersion(formatId: string): Promise<string | null> {
    const cached = this.cache.get(formatId);
    if (cached && cached.snapshot.version === this.versions[formatId]) return cached.snapshot.version;
    const sockets = this.ctx.getWebSockets(formatTag(formatId));
    if (!sockets.every((ws) => attachmentOf(ws).windowed)) return (await this.cachedFormat(formatId))?.snapshot.version ?? null;
    const version = (await this.room().scoredFormat(formatId))?.version ?? null;
    if (version !== null && version !== this.versions[formatId]) this.refreshPaged(formatId, sockets, version);
    return version;
  }

  /** Paged sockets move to `version` by fetching their page; a format gone (null) closes them. */
  private refreshPaged(formatId: string, sockets: WebSocket[], version: string | null): void {
    if (version === null) {
      for (const ws of sockets) closeQuietly(ws, 4404, "result format removed");
      this.socketCount = null;
      delete this.versions[formatId];
      return;
    }
    this.versions[formatId] = version;
    this.saveState();
    const refresh = JSON.stringify({ type: "refresh", formatId, version } satisfies RaceServerMessage);
    for (const ws of sockets) sendRaw(ws, refresh);
  }

  /** The format as this shard's sockets hold it, fetched once after a wake-up; null when it is gone. */
  private async cachedFormat(formatId: string): Promise<CachedFormat | null> {
    const cached = this.cache.get(formatId);
    if (cached && cached.snapshot.version === this.versions[formatId]) return cached;
    const held = this.versions[formatId];
    const snapshot = await this.room().snapshot(formatId);
    if (!snapshot) return null;
    const fresh = cacheOf(snapshot);
    this.cache.set(formatId, fresh);
    this.versions[formatId] = snapshot.version;
    this.saveState();
    // Sockets already here may hold an older version: they get the same snapshot, so every socket chains alike.
    if (held !== snapshot.version) {
      this.history.forget(formatId);
      await this.sendSnapshot(fresh, this.ctx.getWebSockets(formatTag(formatId)));
    }
    return fresh;
  }

  /**
   * What a socket connecting at `since` needs to reach the format's version: the frames it missed, while this
   * shard still has them all and they cost less than the whole format; otherwise the snapshot.
   */
  private async catchUp(cached: CachedFormat, since: string | null, patches: boolean): Promise<WireFrame[]> {
    const missed = since === null ? null : this.history.between(cached.snapshot.formatId, since, cached.snapshot.version);
    const wires = missed?.map((frame) => wireFor(frame, patches)) ?? [null];
    // A frame sent only as patches cannot bring a socket that takes whole rows: it gets the snapshot.
    if (wires.includes(null)) return [await this.snapshotFrame(cached)];
    const chain = wires as WireFrame[];
    const bytes = chain.reduce((sum, wire) => sum + lengthOf(wire), 0);
    // Weighing a large chain against the snapshot means building the snapshot (a tick makes it stale), so a small
    // chain is sent without asking.
    if (bytes > SMALL_CATCH_UP_BYTES) {
      const snapshot = await this.snapshotFrame(cached);
      if (bytes >= lengthOf(snapshot)) return [snapshot];
    }
    return chain;
  }

  private async snapshotFrame(cached: CachedFormat): Promise<WireFrame> {
    cached.wire ??= await packFrame(
      JSON.stringify({ type: "snapshot", snapshot: { ...cached.snapshot, rows: [...cached.rows.values()] } } satisfies RaceServerMessage),
    );
    return cached.wire;
  }

  /** The race's formats, fetched once per wake-up and again after a setup change. */
  private async formatList(): Promise<Map<string, SpectatorFormat>> {
    this.formats ??= new Map((await this.room().spectatorFormats()).map((f) => [f.id, f]));
    return this.formats;
  }

  private async heatsFrame(): Promise<{ version: number; wire: WireFrame }> {
    if (!this.heats) {
      const heats = await this.room().heatsView();
      this.heats = { version: heats.version, wire: await packFrame(JSON.stringify({ type: "heats", heats } satisfies RaceServerMessage)) };
    }
    return this.heats;
  }

  private async sendHeats(heats: { version: number; frame: string }): Promise<void> {
    if (this.heats && this.heats.version >= heats.version) return;
    this.heats = { version: heats.version, wire: await packFrame(heats.frame) };
    for (const ws of this.ctx.getWebSockets(HEATS_TAG)) sendRaw(ws, this.heats.wire);
  }

  private followedFormats(): string[] {
    const ids = new Set<string>();
    for (const ws of this.ctx.getWebSockets()) {
      const formatId = attachmentOf(ws).formatId;
      if (formatId) ids.add(formatId);
    }
    return [...ids];
  }

  /** Tells the room when this shard passes its target, so new spectators are spread over more shards. */
  private async reportLoad(count: number): Promise<void> {
    const target = shardTarget(this.env);
    if (count < target || count < this.reportedLoad + target / 10) return;
    this.reportedLoad = count;
    await this.room().shardLoad(this.index, count);
  }

  private saveState(): void {
    if (this.raceId === null) return;
    this.ctx.storage.sql.exec(
      "INSERT INTO shard_state (id, race_id, shard, versions) VALUES (1, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET versions = excluded.versions",
      this.raceId,
      this.index,
      JSON.stringify(this.versions),
    );
  }
}

/** The shard size the race grows at: SPECTATOR_SHARD_TARGET when set (tests set it low), else the default. */
export function shardTarget(env: Env): number {
  const value = Number((env as { SPECTATOR_SHARD_TARGET?: string }).SPECTATOR_SHARD_TARGET);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_SHARD_TARGET;
}

type RowsMessage = Extract<RaceServerMessage, { type: "rows" }>;

function attachmentOf(ws: WebSocket): SpectatorAttachment {
  const value = ws.deserializeAttachment() as Partial<SpectatorAttachment> | null;
  return {
    connectedAt: value?.connectedAt ?? 0,
    formatId: value?.formatId ?? null,
    heats: value?.heats ?? false,
    windowed: value?.windowed ?? false,
    filter: value?.filter ?? null,
  };
}
