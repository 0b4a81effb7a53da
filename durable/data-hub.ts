import { DurableObject } from "cloudflare:workers";
import { missingScopes, type Scope, type ScopeGrant } from "../core/access/scopes";
import { openDb } from "../schema/d1";
import {
  DATA_SOCKET_AUTH_TIMEOUT_MS,
  DATA_SOCKET_CLOSE_AUTH,
  DATA_SOCKET_CLOSE_EXPIRED,
  dataClientMessageSchema,
  type DataServerMessage,
} from "../schema/wire/data-socket";
import { accessTokenRefusal, checkAccessToken } from "./access-tokens";

/** What each socket remembers across hibernation. */
interface HubAttachment {
  conn: string;
  instance: string;
  host: string;
  connectedAt: number;
  auth: { userId: string; appId: string; scopes: ScopeGrant[]; expiresAt: number } | null;
}

export type DataMessage = Extract<DataServerMessage, { type: "data" }>;

/** Whose socket may be subscribed: the same user through the same app that authenticated it. */
export interface SubscriberIdentity {
  userId: string;
  appId: string;
}

function send(ws: WebSocket, message: DataServerMessage): void {
  try {
    ws.send(JSON.stringify(message));
  } catch {
    // The socket closed under us; its close handler removes its subscriptions.
  }
}

/**
 * One per tenant host (`idFromName(host)`): holds the data service's sockets (hibernatable) and which
 * entity channels each one follows, and fans saves out to them. Subscriptions live in SQLite so they
 * survive hibernation and are looked up by channel.
 */
export class DataHub extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('{"type":"ping"}', '{"type":"pong"}'));
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS subscriptions (channel TEXT NOT NULL, conn TEXT NOT NULL, PRIMARY KEY (channel, conn)) WITHOUT ROWID;" +
        "CREATE INDEX IF NOT EXISTS subscriptions_conn ON subscriptions (conn);",
    );
  }

  /** Accepts a socket forwarded by the Worker; it must authenticate within 10 s. */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("Expected a WebSocket upgrade", { status: 426 });
    const url = new URL(request.url);
    const host = url.searchParams.get("host") ?? "";
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    const conn = crypto.randomUUID();
    this.ctx.acceptWebSocket(server, [conn]);
    server.serializeAttachment({ conn, instance: url.searchParams.get("instance") ?? "", host, connectedAt: Date.now(), auth: null } satisfies HubAttachment);
    await this.scheduleCheck(Date.now() + DATA_SOCKET_AUTH_TIMEOUT_MS);
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, data: string | ArrayBuffer): Promise<void> {
    const attachment = ws.deserializeAttachment() as HubAttachment;
    let raw: unknown;
    try {
      raw = JSON.parse(typeof data === "string" ? data : new TextDecoder().decode(data));
    } catch {
      raw = null;
    }
    const parsed = dataClientMessageSchema.safeParse(raw);
    if (!parsed.success) {
      send(ws, { type: "error", message: "Unrecognised message" });
      return;
    }
    const message = parsed.data;
    if (message.type === "ping") {
      send(ws, { type: "pong" });
      return;
    }
    const check = await checkAccessToken(openDb(this.env.DB), attachment.host, `Bearer ${message.token}`, Date.now());
    if (!check.ok) {
      send(ws, { type: "error", message: accessTokenRefusal[check.reason] });
      ws.close(DATA_SOCKET_CLOSE_AUTH, "authentication failed");
      return;
    }
    // A second api-auth (a refreshed token) replaces the first, which keeps a long-lived socket alive.
    if (attachment.auth && (attachment.auth.userId !== check.userId || attachment.auth.appId !== check.appId)) {
      this.ctx.storage.sql.exec("DELETE FROM subscriptions WHERE conn = ?", attachment.conn);
    }
    ws.serializeAttachment({
      ...attachment,
      auth: { userId: check.userId, appId: check.appId, scopes: check.scopes, expiresAt: check.expiresAt },
    } satisfies HubAttachment);
    send(ws, { type: "hello", conn: attachment.conn, instance: attachment.instance, server_time: Date.now() });
    await this.scheduleCheck(check.expiresAt);
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    this.forget(ws);
    // 1005 and 1006 are reserved and may not be sent back (stack.md).
    ws.close(code === 1005 || code === 1006 ? 1000 : code, "closed");
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    this.forget(ws);
  }

  /** Closes sockets that never authenticated in time and those whose token expired. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    let next = Infinity;
    for (const ws of this.ctx.getWebSockets()) {
      const attachment = ws.deserializeAttachment() as HubAttachment;
      if (!attachment.auth) {
        const deadline = attachment.connectedAt + DATA_SOCKET_AUTH_TIMEOUT_MS;
        if (deadline <= now) {
          send(ws, { type: "error", message: "Authenticate with api-auth within 10 seconds" });
          this.forget(ws);
          ws.close(DATA_SOCKET_CLOSE_AUTH, "not authenticated");
        } else next = Math.min(next, deadline);
      } else if (attachment.auth.expiresAt <= now) {
        send(ws, { type: "error", message: "The access token expired" });
        this.forget(ws);
        ws.close(DATA_SOCKET_CLOSE_EXPIRED, "token expired");
      } else next = Math.min(next, attachment.auth.expiresAt);
    }
    if (next !== Infinity) await this.ctx.storage.setAlarm(next);
  }

  /** Subscribes an authenticated socket to a channel, if it belongs to the same user and app. */
  async subscribe(conn: string, channel: string, classname: string, uuid: string, who: SubscriberIdentity): Promise<boolean> {
    const ws = this.ctx.getWebSockets(conn)[0];
    if (!ws) return false;
    const auth = (ws.deserializeAttachment() as HubAttachment).auth;
    if (!auth || auth.userId !== who.userId || auth.appId !== who.appId || auth.expiresAt <= Date.now()) return false;
    this.ctx.storage.sql.exec("INSERT OR IGNORE INTO subscriptions (channel, conn) VALUES (?, ?)", channel, conn);
    send(ws, { type: "subscription", channel, classname, uuid });
    return true;
  }

  /** Stops a socket following a channel; only the user and app that own the socket may. */
  async unsubscribe(conn: string, channel: string, who: SubscriberIdentity): Promise<boolean> {
    const ws = this.ctx.getWebSockets(conn)[0];
    const auth = ws ? (ws.deserializeAttachment() as HubAttachment).auth : null;
    if (!auth || auth.userId !== who.userId || auth.appId !== who.appId) return false;
    this.ctx.storage.sql.exec("DELETE FROM subscriptions WHERE channel = ? AND conn = ?", channel, conn);
    return true;
  }

  /**
   * Sends a change to every socket subscribed to its channel whose token still carries the scope (for the
   * item, when the grant is limited to items). Returns how many sockets it reached.
   */
  async publish(message: DataMessage, scope: Scope, itemId: string | undefined): Promise<number> {
    const conns = this.ctx.storage.sql.exec<{ conn: string }>("SELECT conn FROM subscriptions WHERE channel = ?", message.channel).toArray();
    if (conns.length === 0) return 0;
    const wanted = new Set(conns.map((row) => row.conn));
    const frame = JSON.stringify(message);
    const now = Date.now();
    let delivered = 0;
    for (const ws of this.ctx.getWebSockets()) {
      const attachment = ws.deserializeAttachment() as HubAttachment;
      if (!wanted.has(attachment.conn) || !attachment.auth || attachment.auth.expiresAt <= now) continue;
      if (missingScopes([scope], attachment.auth.scopes, itemId).length > 0) continue;
      try {
        ws.send(frame);
        delivered++;
      } catch {
        this.forget(ws);
      }
    }
    if (message.deleted) this.ctx.storage.sql.exec("DELETE FROM subscriptions WHERE channel = ?", message.channel);
    return delivered;
  }

  /** How many sockets are open and how many subscriptions are held (for tests and the bench). */
  async stats(): Promise<{ sockets: number; subscriptions: number }> {
    const row = this.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM subscriptions").one();
    return { sockets: this.ctx.getWebSockets().length, subscriptions: row.n };
  }

  private forget(ws: WebSocket): void {
    const attachment = ws.deserializeAttachment() as HubAttachment | null;
    if (attachment) this.ctx.storage.sql.exec("DELETE FROM subscriptions WHERE conn = ?", attachment.conn);
  }

  private async scheduleCheck(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(at);
  }
}
