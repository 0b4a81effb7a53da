import { DurableObject } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/durable-sqlite";
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
    const mtimes = { club_id: now, name: now, start_time: now, timezone: now };
    this.db
      .insert(raceSetup)
      .values({ ...race, createdAt: now, fieldMtimes: mtimes })
      .run();
    return { ...race, createdAt: now };
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
