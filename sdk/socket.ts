/**
 * DataSocket: live changes of subscribed entities over `/data-api/socket` (docs/api/data-service.md,
 * spec sections 4 and 9). States: connecting, then ready after the server's hello, then disconnected;
 * after a disconnect it reconnects by itself with a growing delay until `close()`.
 */
import {
  channelOf,
  DATA_SOCKET_CLOSE_AUTH,
  DATA_SOCKET_CLOSE_EXPIRED,
  DATA_SOCKET_PING_MS,
  dataServerMessageSchema,
  type DataClientMessage,
  type DataServerMessage,
} from "../schema/wire/data-socket";
import { AuthError, DataServiceError, SOCKET_CONNECT_TIMEOUT, SocketError } from "./errors";

export type SocketState = "connecting" | "ready" | "disconnected";
export type DataFrame = Extract<DataServerMessage, { type: "data" }>;
export type DataHandler = (frame: DataFrame) => void;

/** Spec section 9: the socket must say hello within 1000 ms unless told otherwise. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 1000;

/** Spec section 9: 1 s for the first 3 consecutive failures, 10 s up to 10, then 60 s. `failures` counts from 1. */
export function reconnectDelay(failures: number): number {
  if (failures <= 3) return 1000;
  if (failures <= 10) return 10_000;
  return 60_000;
}

/** What the socket needs of a WebSocket: the browser's, Node 22's global, or the `ws` package's in Node 20. */
export interface WebSocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "open" | "message" | "close" | "error", listener: (event: WebSocketEventLike) => void): void;
}
/** `data` on message events, `code` on close events. */
export interface WebSocketEventLike {
  readonly data?: unknown;
  readonly code?: number;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface SocketTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** The part of DataClient the socket uses. */
export interface DataSocketClient {
  readonly baseUrl: string;
  accessToken(options?: { forceRefresh?: boolean }): Promise<string>;
  subscribe(className: string, uuid: string, conn: string): Promise<unknown>;
}

export interface DataSocketOptions {
  client: DataSocketClient;
  /** This client instance's id in the socket URL; default 16 random bytes in hex. */
  instance?: string;
  /** Default the global WebSocket (Node 20 has none: pass `WebSocket` from the `ws` package). */
  WebSocket?: WebSocketConstructor;
  /** Default the global timers, looked up at each call so test fake timers apply. */
  timers?: SocketTimers;
  /** Time allowed from opening to the server's hello; default 1000 ms. */
  connectTimeoutMs?: number;
  onError?: (error: Error) => void;
  onStateChange?: (state: SocketState) => void;
}

const globalTimers: SocketTimers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
  setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as Parameters<typeof clearInterval>[0]),
};

function randomInstanceId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** ws: for http, wss: for https, on the client's host. */
export function socketUrl(baseUrl: string, instance: string): string {
  const url = new URL("/data-api/socket", baseUrl);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.searchParams.set("instance", instance);
  return url.toString();
}

function frameText(data: unknown): string | null {
  if (typeof data === "string") return data;
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return new TextDecoder().decode(data);
  return null;
}

interface Channel {
  readonly className: string;
  readonly uuid: string;
  readonly handlers: Set<DataHandler>;
}

export class DataSocket {
  readonly instance: string;
  readonly url: string;
  readonly #client: DataSocketClient;
  readonly #WebSocket: WebSocketConstructor | undefined;
  readonly #timers: SocketTimers;
  readonly #connectTimeoutMs: number;
  readonly #errorListeners = new Set<(error: Error) => void>();
  readonly #stateListeners = new Set<(state: SocketState) => void>();
  readonly #channels = new Map<string, Channel>();

  #state: SocketState = "disconnected";
  #conn: string | null = null;
  #ws: WebSocketLike | null = null;
  /** Bumped whenever a connection ends, so late events of an old socket are ignored. */
  #generation = 0;
  #failures = 0;
  #stopped = true;
  #forceRefresh = false;
  /** The token last sent in api-auth on the current connection. */
  #token: string | null = null;
  #reauthFailed = false;
  #connectTimer: unknown = null;
  #pingTimer: unknown = null;
  #reconnectTimer: unknown = null;

  constructor(options: DataSocketOptions) {
    this.#client = options.client;
    this.instance = options.instance ?? randomInstanceId();
    this.url = socketUrl(options.client.baseUrl, this.instance);
    this.#WebSocket = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    this.#timers = options.timers ?? globalTimers;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    if (options.onError) this.#errorListeners.add(options.onError);
    if (options.onStateChange) this.#stateListeners.add(options.onStateChange);
  }

  get state(): SocketState {
    return this.#state;
  }

  /** The connection id from the last hello; null unless ready. */
  get conn(): string | null {
    return this.#conn;
  }

  /** Consecutive failed connections since the last hello. */
  get failures(): number {
    return this.#failures;
  }

  /** Starts connecting, and keeps reconnecting until close(). Calling it while running does nothing. */
  connect(): void {
    if (!this.#stopped) return;
    if (!this.#WebSocket) throw new DataServiceError("No WebSocket here: pass the WebSocket option (in Node 20, from the ws package)");
    this.#stopped = false;
    this.#failures = 0;
    void this.#open();
  }

  /** Closes the socket and stops reconnecting. Subscriptions are kept for a later connect(). */
  close(): void {
    this.#stopped = true;
    if (this.#reconnectTimer !== null) this.#timers.clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = null;
    this.#end(this.#generation, 1000);
  }

  /**
   * Calls `handler` with each change of one entity. Subscribes at once when ready, else after the next
   * hello, and again after every reconnect. Resolves with a function that removes the handler.
   */
  async subscribe(className: string, uuid: string, handler: DataHandler): Promise<() => void> {
    const key = channelOf(className, uuid);
    const existing = this.#channels.get(key);
    const channel = existing ?? { className, uuid, handlers: new Set<DataHandler>() };
    if (!existing) this.#channels.set(key, channel);
    channel.handlers.add(handler);
    const unsubscribe = () => {
      channel.handlers.delete(handler);
      if (channel.handlers.size === 0 && this.#channels.get(key) === channel) this.#channels.delete(key);
    };
    if (!existing && this.#state === "ready" && this.#conn) {
      try {
        await this.#client.subscribe(className, uuid, this.#conn);
      } catch (error) {
        unsubscribe();
        throw error;
      }
    }
    return unsubscribe;
  }

  onError(listener: (error: Error) => void): () => void {
    this.#errorListeners.add(listener);
    return () => this.#errorListeners.delete(listener);
  }

  onStateChange(listener: (state: SocketState) => void): () => void {
    this.#stateListeners.add(listener);
    return () => this.#stateListeners.delete(listener);
  }

  async #open(): Promise<void> {
    const generation = ++this.#generation;
    this.#setState("connecting");
    let token: string;
    try {
      token = await this.#client.accessToken({ forceRefresh: this.#forceRefresh });
      this.#forceRefresh = false;
    } catch (error) {
      if (generation !== this.#generation || this.#stopped) return;
      this.#report(error);
      if (error instanceof AuthError) {
        // No token to offer: retrying cannot help until the user authorises again and calls connect().
        this.#stopped = true;
        this.#setState("disconnected");
        return;
      }
      this.#end(generation);
      return;
    }
    if (generation !== this.#generation || this.#stopped) return;
    const ws = new (this.#WebSocket as WebSocketConstructor)(this.url);
    this.#ws = ws;
    this.#connectTimer = this.#timers.setTimeout(() => {
      if (generation !== this.#generation) return;
      this.#report(new SocketError(SOCKET_CONNECT_TIMEOUT));
      this.#end(generation);
    }, this.#connectTimeoutMs);
    ws.addEventListener("open", () => {
      if (generation !== this.#generation) return;
      this.#token = token;
      this.#reauthFailed = false;
      this.#send(ws, { type: "api-auth", token });
      this.#pingTimer = this.#timers.setInterval(() => {
        this.#send(ws, { type: "ping" });
        void this.#reauthenticate(generation, ws);
      }, DATA_SOCKET_PING_MS);
    });
    ws.addEventListener("message", (event) => this.#receive(generation, event.data));
    ws.addEventListener("close", (event) => {
      if (generation !== this.#generation) return;
      // Refused or expired token: the next attempt refreshes first.
      if (event.code === DATA_SOCKET_CLOSE_AUTH || event.code === DATA_SOCKET_CLOSE_EXPIRED) this.#forceRefresh = true;
      this.#end(generation);
    });
    // An error event carries nothing useful; close follows it.
    ws.addEventListener("error", () => undefined);
  }

  /**
   * The server closes a socket when its token expires (4003) but takes a fresh api-auth on the open socket,
   * so once the client has refreshed, the new token is sent and the socket and its subscriptions live on.
   */
  async #reauthenticate(generation: number, ws: WebSocketLike): Promise<void> {
    try {
      const token = await this.#client.accessToken();
      if (generation !== this.#generation || token === this.#token) return;
      this.#token = token;
      this.#send(ws, { type: "api-auth", token });
    } catch (error) {
      // Once per connection: the same failure would otherwise be reported every ping.
      if (generation !== this.#generation || this.#reauthFailed) return;
      this.#reauthFailed = true;
      this.#report(error);
    }
  }

  #send(ws: WebSocketLike, message: DataClientMessage): void {
    try {
      ws.send(JSON.stringify(message));
    } catch (error) {
      this.#report(error);
    }
  }

  #receive(generation: number, data: unknown): void {
    if (generation !== this.#generation) return;
    const text = frameText(data);
    let value: unknown;
    try {
      value = text === null ? undefined : JSON.parse(text);
    } catch {
      value = undefined;
    }
    const parsed = dataServerMessageSchema.safeParse(value);
    if (!parsed.success) {
      this.#report(new SocketError("The server sent a frame that does not parse"));
      return;
    }
    const frame = parsed.data;
    switch (frame.type) {
      case "hello":
        // The answer to a fresh api-auth on this connection: the server kept its subscriptions.
        if (this.#state === "ready" && frame.conn === this.#conn) break;
        this.#timers.clearTimeout(this.#connectTimer);
        this.#connectTimer = null;
        this.#conn = frame.conn;
        this.#failures = 0;
        this.#setState("ready");
        void this.#resubscribe(generation, frame.conn);
        break;
      case "data":
        for (const handler of [...(this.#channels.get(frame.channel)?.handlers ?? [])]) {
          try {
            handler(frame);
          } catch (error) {
            this.#report(error);
          }
        }
        break;
      case "error":
        this.#report(new SocketError(frame.message));
        break;
      case "pong":
      case "subscription":
        break;
    }
  }

  /** After each hello the server knows none of this client's channels: subscribe them all again. */
  async #resubscribe(generation: number, conn: string): Promise<void> {
    for (const channel of [...this.#channels.values()]) {
      if (generation !== this.#generation) return;
      try {
        await this.#client.subscribe(channel.className, channel.uuid, conn);
      } catch (error) {
        this.#report(error);
      }
    }
  }

  /** Ends the connection of `generation` (if still current) and, unless stopped, schedules the next. */
  #end(generation: number, code?: number): void {
    if (generation !== this.#generation) return;
    this.#generation++;
    this.#timers.clearTimeout(this.#connectTimer);
    this.#timers.clearInterval(this.#pingTimer);
    this.#connectTimer = null;
    this.#pingTimer = null;
    const ws = this.#ws;
    this.#ws = null;
    this.#conn = null;
    this.#token = null;
    try {
      ws?.close(code);
    } catch {
      // Already closing or closed.
    }
    this.#setState("disconnected");
    if (this.#stopped) return;
    this.#failures++;
    this.#reconnectTimer = this.#timers.setTimeout(() => {
      this.#reconnectTimer = null;
      if (!this.#stopped) void this.#open();
    }, reconnectDelay(this.#failures));
  }

  #setState(state: SocketState): void {
    if (state === this.#state) return;
    this.#state = state;
    for (const listener of [...this.#stateListeners]) listener(state);
  }

  #report(error: unknown): void {
    const reported = error instanceof Error ? error : new SocketError(String(error));
    for (const listener of [...this.#errorListeners]) listener(reported);
  }
}
