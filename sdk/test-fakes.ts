/**
 * Test doubles for the SDK's tests: a scripted fetch that records every call, and a WebSocket whose
 * server side the test drives. Not part of the library (index.ts does not export it).
 */
import type { FetchLike } from "./tokens";
import type { WebSocketLike } from "./socket";

export interface RecordedCall {
  readonly method: string;
  readonly url: URL;
  readonly headers: Headers;
  readonly body: string | null;
  readonly credentials: RequestCredentials | undefined;
}

type Reply = Response | ((call: RecordedCall) => Response | Promise<Response>);

interface Route {
  readonly method: string;
  readonly path: string;
  readonly reply: Reply;
  readonly once: boolean;
}

/** A fetch that answers by method and path: `once` replies first, in order, then standing `on` replies. */
export function fakeFetch() {
  const calls: RecordedCall[] = [];
  const routes: Route[] = [];
  const fetch: FetchLike = async (input, init = {}) => {
    const call: RecordedCall = {
      method: (init.method ?? "GET").toUpperCase(),
      url: new URL(input),
      headers: new Headers(init.headers),
      body: typeof init.body === "string" ? init.body : null,
      credentials: init.credentials,
    };
    calls.push(call);
    const matches = (r: Route) => r.method === call.method && r.path === call.url.pathname;
    const route = routes.find((r) => r.once && matches(r)) ?? routes.find((r) => !r.once && matches(r));
    if (!route) throw new Error(`fakeFetch: unexpected ${call.method} ${call.url.pathname}`);
    if (route.once) routes.splice(routes.indexOf(route), 1);
    return typeof route.reply === "function" ? route.reply(call) : route.reply.clone();
  };
  return {
    fetch,
    calls,
    on(method: string, path: string, reply: Reply) {
      routes.push({ method, path, reply, once: false });
    },
    once(method: string, path: string, reply: Reply) {
      routes.push({ method, path, reply, once: true });
    },
    callsTo(method: string, path: string): RecordedCall[] {
      return calls.filter((c) => c.method === method && c.url.pathname === path);
    },
  };
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify(body), { ...init, headers });
}

type Listener = (event: never) => void;

/** A WebSocket double: `close()` records the call without an event, as a real socket's close event comes later. */
export class FakeWebSocket implements WebSocketLike {
  readonly sent: unknown[] = [];
  closedWith: { code: number | undefined } | null = null;
  #open = false;
  readonly #listeners = new Map<string, Set<Listener>>();

  constructor(readonly url: string) {}

  addEventListener(type: string, listener: Listener): void {
    const set = this.#listeners.get(type) ?? new Set<Listener>();
    set.add(listener);
    this.#listeners.set(type, set);
  }

  send(data: string): void {
    if (!this.#open || this.closedWith) throw new Error("InvalidStateError: the socket is not open");
    this.sent.push(JSON.parse(data));
  }

  close(code?: number): void {
    this.closedWith = { code };
    this.#open = false;
  }

  /** Server side: the handshake completes. */
  serverOpen(): void {
    this.#open = true;
    this.#emit("open", {});
  }

  /** Server side: a text frame (objects are sent as JSON). */
  serverSend(frame: unknown): void {
    this.#emit("message", { data: typeof frame === "string" ? frame : JSON.stringify(frame) });
  }

  /** Server side: the connection ends. */
  serverClose(code = 1006): void {
    this.#open = false;
    this.#emit("close", { code });
  }

  #emit(type: string, event: object): void {
    for (const listener of [...(this.#listeners.get(type) ?? [])]) (listener as (e: object) => void)(event);
  }
}

/** A WebSocket constructor for one test, remembering every socket it made. */
export function fakeSockets() {
  const instances: FakeWebSocket[] = [];
  class TestWebSocket extends FakeWebSocket {
    constructor(url: string) {
      super(url);
      instances.push(this);
    }
  }
  return {
    WebSocket: TestWebSocket,
    instances,
    last(): FakeWebSocket {
      const socket = instances.at(-1);
      if (!socket) throw new Error("no socket was opened");
      return socket;
    },
  };
}
