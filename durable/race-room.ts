import { DurableObject } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/durable-sqlite";
import { applyFieldChanges, initialMtimes, type FieldMtimes } from "../core/entity/field-mtimes";
import { openDb, races } from "../schema/d1";
import { raceChangesSchema, raceColumnOf, raceRowOf, type RaceChangeResult, type RaceEntity, type RaceValue } from "../schema/race/entity";
import { raceRoomMigrations } from "../schema/race/migrations";
import { raceSetup } from "../schema/race/tables";
import {
  raceClientMessageSchema,
  raceIdentitySchema,
  type RaceIdentity,
  type RaceServerMessage,
} from "../schema/wire/race-socket";

/** What each socket remembers across hibernation, kept in its attachment. */
interface SocketAttachment {
  connectedAt: number;
}

export interface RaceSetupView extends RaceIdentity {
  createdAt: number;
}

/**
 * One per race (`idFromName(raceId)`): the single writer of that race's timing data, and the hub of its
 * live sockets. Sockets are hibernatable, so an idle race costs nothing while spectators stay connected.
 */
export class RaceRoom extends DurableObject<Env> {
  private readonly db;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.db = drizzle(ctx.storage, { schema: { raceSetup } });
    // Pings are answered by the runtime itself, so they never wake a hibernating object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('{"type":"ping"}', '{"type":"pong"}'));
    ctx.blockConcurrencyWhile(async () => this.migrate());
  }

  /** Records which race this object holds; the first call wins and later calls return what is stored. */
  async open(identity: RaceIdentity): Promise<RaceSetupView> {
    const race = raceIdentitySchema.parse(identity);
    const existing = this.readSetup();
    if (existing) return existing;
    const now = Date.now();
    const { fieldMtimes, ...fields } = race;
    const mtimes = fieldMtimes ?? initialMtimes({ club: race.clubId, name: race.name, start_time: race.startTime, timezone: race.timezone }, now);
    this.db
      .insert(raceSetup)
      .values({ ...fields, visibility: fields.visibility ?? "public", createdAt: now, fieldMtimes: mtimes })
      .run();
    return { id: race.id, clubId: race.clubId, name: race.name, startTime: race.startTime, timezone: race.timezone, createdAt: now };
  }

  /** The Race as the data service shows it (API field names), or null before `open`. */
  async raceEntity(): Promise<RaceEntity | null> {
    const row = this.db.select().from(raceSetup).get();
    return row ? { row: raceRowOf(row), mtimes: row.fieldMtimes } : null;
  }

  /**
   * Changes Race fields as their single writer, then writes the catalogue row in D1 so lists show the
   * change. Fields the caller read at older times than stored are refused as stale, and nothing is written.
   */
  async changeRace(changes: Record<string, unknown>, baseMtimes: FieldMtimes | null): Promise<RaceChangeResult | null> {
    // The registry's schemas yield only text, numbers and null for these fields.
    const parsed = raceChangesSchema.parse(changes) as Partial<Record<string, RaceValue>>;
    const row = this.db.select().from(raceSetup).get();
    if (!row) return null;
    const current = raceRowOf(row);
    const result = applyFieldChanges(current, row.fieldMtimes, parsed, Date.now(), baseMtimes ?? undefined);
    if (result.stale.length > 0) return { ok: false, stale: result.stale, row: current, mtimes: row.fieldMtimes };
    const changed = result.changed as Record<string, RaceValue>;
    if (Object.keys(changed).length > 0) {
      const columns: Partial<typeof raceSetup.$inferInsert> = { fieldMtimes: result.mtimes };
      for (const [field, value] of Object.entries(changed)) {
        (columns as Record<string, unknown>)[raceColumnOf[field as keyof typeof raceColumnOf]] = value;
      }
      this.db.update(raceSetup).set(columns).run();
      await this.writeCatalogue();
    }
    return { ok: true, changed, mtimes: result.mtimes, row: { ...current, ...changed } };
  }

  /** Forgets the race (after its catalogue row is deleted): storage is wiped and sockets are closed. */
  async discard(): Promise<void> {
    for (const ws of this.ctx.getWebSockets()) ws.close(1000, "race deleted");
    await this.ctx.storage.deleteAll();
    // deleteAll drops the tables too; recreate them so this object answers "no race" rather than failing.
    this.migrate();
  }

  /** Retries a catalogue write that failed (D1 unreachable for a moment). */
  override async alarm(): Promise<void> {
    await this.writeCatalogue();
  }

  // The D1 catalogue row follows this object's copy; a failed write is retried in 30 s by the alarm.
  private async writeCatalogue(): Promise<void> {
    const row = this.db.select().from(raceSetup).get();
    if (!row) return;
    try {
      await openDb(this.env.DB)
        .update(races)
        .set({ name: row.name, sport: row.sport, startTime: row.startTime, endTime: row.endTime, timezone: row.timezone, location: row.location, visibility: row.visibility, fieldMtimes: row.fieldMtimes })
        .where(eq(races.id, row.id));
    } catch (error) {
      console.error("catalogue write failed; retrying", error);
      await this.ctx.storage.setAlarm(Date.now() + 30_000);
    }
  }

  /** The race this object holds, or null before `open`. */
  async getSetup(): Promise<RaceSetupView | null> {
    return this.readSetup();
  }

  /** How many sockets are connected now. */
  async connectionCount(): Promise<number> {
    return this.ctx.getWebSockets().length;
  }

  /** The schema version of this object's storage. */
  async storageVersion(): Promise<number> {
    const row = this.ctx.storage.sql.exec<{ version: number }>("SELECT MAX(version) AS version FROM _race_migrations").one();
    return row.version;
  }

  /** Accepts a WebSocket upgrade forwarded by the Worker (which has already checked the race is visible). */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    }
    const setup = this.readSetup();
    if (!setup) return new Response("Race not opened", { status: 404 });
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment({ connectedAt: Date.now() } satisfies SocketAttachment);
    send(server, {
      type: "hello",
      race_id: setup.id,
      name: setup.name,
      server_time: Date.now(),
      connections: this.ctx.getWebSockets().length,
    });
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const text = typeof message === "string" ? message : new TextDecoder().decode(message);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      send(ws, { type: "error", message: "Messages must be JSON" });
      return;
    }
    const parsed = raceClientMessageSchema.safeParse(json);
    if (!parsed.success) {
      send(ws, { type: "error", message: "Unknown message" });
      return;
    }
    const setup = this.readSetup();
    if (parsed.data.type === "ping") send(ws, { type: "pong" });
    else send(ws, { type: "info", race_id: setup?.id ?? "", connections: this.ctx.getWebSockets().length });
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    // 1005 and 1006 are reserved: they describe a close but may not be sent in one.
    const safeCode = code === 1005 || code === 1006 ? 1000 : code;
    try {
      ws.close(safeCode, reason);
    } catch {
      // Already closed by the peer.
    }
  }

  private readSetup(): RaceSetupView | null {
    const row = this.db.select().from(raceSetup).get();
    if (!row) return null;
    return {
      id: row.id,
      clubId: row.clubId,
      name: row.name,
      startTime: row.startTime,
      timezone: row.timezone,
      createdAt: row.createdAt,
    };
  }

  private migrate(): void {
    const sql = this.ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS _race_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)");
    const applied = new Set(sql.exec<{ version: number }>("SELECT version FROM _race_migrations").toArray().map((r) => r.version));
    for (const step of raceRoomMigrations) {
      if (applied.has(step.version)) continue;
      this.ctx.storage.transactionSync(() => {
        for (const statement of step.statements) sql.exec(statement);
        sql.exec("INSERT INTO _race_migrations (version, applied_at) VALUES (?, ?)", step.version, Date.now());
      });
    }
  }
}

function send(ws: WebSocket, message: RaceServerMessage): void {
  ws.send(JSON.stringify(message));
}
