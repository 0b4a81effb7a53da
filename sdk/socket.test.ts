import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DataClient } from "./client";
import { AuthError, NO_BEARER_TOKEN, SocketError } from "./errors";
import { DataSocket, reconnectDelay, socketUrl, type DataFrame, type DataSocketClient, type SocketState } from "./socket";
import { MemoryTokenStorage, tokenStorageKeys as keys } from "./storage";
import { fakeFetch, fakeSockets, json, type FakeWebSocket } from "./test-fakes";

const REG = "3f0c2b1e-0000-4000-8000-000000000001";

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

/** Lets pending promises (the token, a subscribe) settle without moving the clock. */
const settle = () => vi.advanceTimersByTimeAsync(0);

function hello(conn: string) {
  return { type: "hello", conn, instance: "inst-1", server_time: 1 };
}

function dataFrame(uuid: string, fields: Record<string, unknown>) {
  return { type: "data", channel: `Registration/${uuid}`, classname: "Registration", uuid, fields, field_mtimes: { name: 5 } };
}

function setup(options: { connectTimeoutMs?: number } = {}) {
  const sockets = fakeSockets();
  const client = {
    baseUrl: "https://club.example",
    accessToken: vi.fn(async (_options?: { forceRefresh?: boolean }) => "at-0"),
    subscribe: vi.fn(async (className: string, uuid: string, _conn: string) => ({ channel: `${className}/${uuid}` })),
  } satisfies DataSocketClient;
  const errors: Error[] = [];
  const states: SocketState[] = [];
  const socket = new DataSocket({
    client,
    instance: "inst-1",
    WebSocket: sockets.WebSocket,
    connectTimeoutMs: options.connectTimeoutMs,
    onError: (error) => errors.push(error),
    onStateChange: (state) => states.push(state),
  });
  /** Connects and completes the handshake of the newest socket. */
  const handshake = async (conn: string): Promise<FakeWebSocket> => {
    await settle();
    const ws = sockets.last();
    ws.serverOpen();
    ws.serverSend(hello(conn));
    await settle();
    return ws;
  };
  return { sockets, client, socket, errors, states, handshake };
}

describe("reconnectDelay", () => {
  it("is 1 s for the first 3 failures, 10 s up to 10, then 60 s", () => {
    expect([1, 2, 3, 4, 5, 9, 10, 11, 12, 100].map(reconnectDelay)).toEqual([1000, 1000, 1000, 10_000, 10_000, 10_000, 10_000, 60_000, 60_000, 60_000]);
  });
});

describe("DataSocket", () => {
  it("connects to ws or wss on the client's host with the instance id", () => {
    expect(socketUrl("https://club.example", "inst 1")).toBe("wss://club.example/data-api/socket?instance=inst+1");
    expect(socketUrl("http://localhost:8787/", "i")).toBe("ws://localhost:8787/data-api/socket?instance=i");
  });

  it("sends api-auth with a valid token on open, and is ready after hello with its conn", async () => {
    const { socket, sockets, states, client } = setup();
    socket.connect();
    expect(socket.state).toBe("connecting");
    await settle();
    const ws = sockets.last();
    expect(ws.url).toBe("wss://club.example/data-api/socket?instance=inst-1");
    expect(ws.sent).toEqual([]);
    ws.serverOpen();
    expect(ws.sent).toEqual([{ type: "api-auth", token: "at-0" }]);
    expect(client.accessToken).toHaveBeenCalledTimes(1);
    expect(socket.state).toBe("connecting");
    ws.serverSend(hello("conn-1"));
    expect(socket.state).toBe("ready");
    expect(socket.conn).toBe("conn-1");
    ws.serverClose();
    expect(socket.state).toBe("disconnected");
    expect(socket.conn).toBeNull();
    expect(states).toEqual(["connecting", "ready", "disconnected"]);
    socket.close();
  });

  it("pings every 10 s while open, and stops when the socket closes", async () => {
    const { socket, handshake } = setup();
    socket.connect();
    const ws = await handshake("c1");
    const pings = () => ws.sent.filter((m) => (m as { type: string }).type === "ping").length;
    await vi.advanceTimersByTimeAsync(9_999);
    expect(pings()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(pings()).toBe(1);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(pings()).toBe(3);
    socket.close();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(pings()).toBe(3);
    expect(ws.closedWith).toEqual({ code: 1000 });
  });

  it("sends a refreshed token on the open socket, keeping its subscriptions", async () => {
    const { socket, client, handshake } = setup();
    await socket.subscribe("Registration", REG, () => undefined);
    socket.connect();
    const ws = await handshake("c1");
    expect(client.subscribe).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(ws.sent).toEqual([{ type: "api-auth", token: "at-0" }, { type: "ping" }]);
    client.accessToken.mockResolvedValue("at-1");
    await vi.advanceTimersByTimeAsync(10_000);
    expect(ws.sent.slice(2)).toEqual([{ type: "ping" }, { type: "api-auth", token: "at-1" }]);
    ws.serverSend(hello("c1"));
    await settle();
    expect(client.subscribe).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(ws.sent.slice(4)).toEqual([{ type: "ping" }]);
    socket.close();
  });

  it("reports a failed re-authentication once, not every ping", async () => {
    const { socket, client, errors, handshake } = setup();
    socket.connect();
    await handshake("c1");
    client.accessToken.mockRejectedValue(new AuthError("Token refresh failed. Please authenticate again."));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(errors.map((e) => e.message)).toEqual(["Token refresh failed. Please authenticate again."]);
    socket.close();
  });

  it("reports 'socket connect failed timeout' and closes when the socket does not open within 1000 ms", async () => {
    const { socket, sockets, errors } = setup();
    socket.connect();
    await settle();
    const ws = sockets.last();
    await vi.advanceTimersByTimeAsync(999);
    expect(errors).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(errors.map((e) => [e.constructor, e.message])).toEqual([[SocketError, "socket connect failed timeout"]]);
    expect(ws.closedWith).not.toBeNull();
    expect(socket.state).toBe("disconnected");
    socket.close();
  });

  it("times out too when the socket opens but no hello comes, with a configurable limit", async () => {
    const { socket, sockets, errors } = setup({ connectTimeoutMs: 5000 });
    socket.connect();
    await settle();
    sockets.last().serverOpen();
    await vi.advanceTimersByTimeAsync(4999);
    expect(errors).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(errors.map((e) => e.message)).toEqual(["socket connect failed timeout"]);
    socket.close();
  });

  it("does not time out once hello has come", async () => {
    const { socket, errors, handshake } = setup();
    socket.connect();
    await handshake("c1");
    await vi.advanceTimersByTimeAsync(30_000);
    expect(errors).toEqual([]);
    expect(socket.state).toBe("ready");
    socket.close();
  });

  it("waits 1 s after each of the first 3 failures, 10 s up to 10, then 60 s", async () => {
    const { socket, sockets } = setup();
    socket.connect();
    await settle();
    const gaps: number[] = [];
    for (let failure = 1; failure <= 13; failure++) {
      const count = sockets.instances.length;
      sockets.last().serverClose(1006);
      // Step one second at a time until the next socket appears.
      let waited = 0;
      while (sockets.instances.length === count && waited < 120_000) {
        await vi.advanceTimersByTimeAsync(1000);
        waited += 1000;
      }
      gaps.push(waited);
    }
    expect(gaps).toEqual([1000, 1000, 1000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 60_000, 60_000, 60_000]);
    socket.close();
  });

  it("counts timeouts as failures", async () => {
    const { socket, sockets } = setup();
    socket.connect();
    await settle();
    // Each attempt times out after 1000 ms, then waits its delay.
    await vi.advanceTimersByTimeAsync(3 * (1000 + 1000));
    expect(sockets.instances).toHaveLength(4);
    expect(socket.failures).toBe(3);
    await vi.advanceTimersByTimeAsync(1000 + 9_999);
    expect(sockets.instances).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets.instances).toHaveLength(5);
    socket.close();
  });

  it("resets the failure count after a hello", async () => {
    const { socket, sockets, handshake } = setup();
    socket.connect();
    await settle();
    for (let i = 0; i < 5; i++) {
      sockets.last().serverClose();
      await vi.advanceTimersByTimeAsync(reconnectDelay(i + 1));
    }
    expect(socket.failures).toBe(5);
    const ws = await handshake("c1");
    expect(socket.failures).toBe(0);
    const count = sockets.instances.length;
    ws.serverClose();
    await vi.advanceTimersByTimeAsync(1000);
    expect(sockets.instances).toHaveLength(count + 1);
    socket.close();
  });

  it("subscribes after hello and again after every reconnect's hello, with the new conn", async () => {
    const { socket, client, handshake } = setup();
    const frames: DataFrame[] = [];
    await socket.subscribe("Registration", REG, (frame) => frames.push(frame));
    expect(client.subscribe).not.toHaveBeenCalled();
    socket.connect();
    const first = await handshake("conn-1");
    expect(client.subscribe.mock.calls).toEqual([["Registration", REG, "conn-1"]]);
    first.serverClose();
    await vi.advanceTimersByTimeAsync(1000);
    const second = await handshake("conn-2");
    expect(client.subscribe.mock.calls).toEqual([
      ["Registration", REG, "conn-1"],
      ["Registration", REG, "conn-2"],
    ]);
    second.serverSend(dataFrame(REG, { name: "Renamed" }));
    expect(frames.map((f) => f.fields)).toEqual([{ name: "Renamed" }]);
    socket.close();
  });

  it("subscribes at once when already ready; a refused subscribe rejects and drops the handler", async () => {
    const { socket, client, handshake } = setup();
    socket.connect();
    const ws = await handshake("conn-1");
    await socket.subscribe("Registration", REG, () => undefined);
    expect(client.subscribe.mock.calls).toEqual([["Registration", REG, "conn-1"]]);
    client.subscribe.mockRejectedValueOnce(new Error("SDK Fetch Error: 404 Not Found"));
    const handler = vi.fn();
    await expect(socket.subscribe("Registration", "other", handler)).rejects.toThrow("SDK Fetch Error: 404 Not Found");
    ws.serverSend({ ...dataFrame("other", { name: "x" }) });
    expect(handler).not.toHaveBeenCalled();
    socket.close();
  });

  it("dispatches data frames to the handlers of their channel only, until unsubscribed", async () => {
    const { socket, handshake } = setup();
    const mine = vi.fn();
    const theirs = vi.fn();
    const unsubscribe = await socket.subscribe("Registration", REG, mine);
    await socket.subscribe("Registration", "other", theirs);
    socket.connect();
    const ws = await handshake("c1");
    ws.serverSend(dataFrame(REG, { name: "A" }));
    ws.serverSend({ ...dataFrame(REG, {}), deleted: true });
    expect(mine.mock.calls.map(([f]) => [(f as DataFrame).fields, (f as DataFrame).deleted])).toEqual([
      [{ name: "A" }, undefined],
      [{}, true],
    ]);
    expect(theirs).not.toHaveBeenCalled();
    unsubscribe();
    ws.serverSend(dataFrame(REG, { name: "B" }));
    expect(mine).toHaveBeenCalledTimes(2);
    socket.close();
  });

  it("reports error frames and frames that do not parse to the error listeners", async () => {
    const { socket, errors, handshake } = setup();
    socket.connect();
    const ws = await handshake("c1");
    ws.serverSend({ type: "error", message: "Subscription refused" });
    ws.serverSend("not json");
    ws.serverSend({ type: "data", channel: "Registration/x" });
    expect(errors.map((e) => [e.name, e.message])).toEqual([
      ["SocketError", "Subscription refused"],
      ["SocketError", "The server sent a frame that does not parse"],
      ["SocketError", "The server sent a frame that does not parse"],
    ]);
    expect(socket.state).toBe("ready");
    socket.close();
  });

  it("stops reconnecting after close()", async () => {
    const { socket, sockets, handshake } = setup();
    socket.connect();
    const ws = await handshake("c1");
    socket.close();
    ws.serverClose();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(sockets.instances).toHaveLength(1);
    expect(socket.state).toBe("disconnected");
  });

  it("close() during a reconnect wait cancels it", async () => {
    const { socket, sockets } = setup();
    socket.connect();
    await settle();
    sockets.last().serverClose();
    socket.close();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(sockets.instances).toHaveLength(1);
  });

  it("refreshes the token before reconnecting after a 4001 or 4003 close", async () => {
    const { socket, client, handshake } = setup();
    socket.connect();
    const ws = await handshake("c1");
    expect(client.accessToken).toHaveBeenLastCalledWith({ forceRefresh: false });
    ws.serverClose(4003);
    await vi.advanceTimersByTimeAsync(1000);
    expect(client.accessToken).toHaveBeenLastCalledWith({ forceRefresh: true });
    socket.close();
  });

  it("stops and reports when there is no token to offer", async () => {
    const { socket, client, sockets, errors } = setup();
    client.accessToken.mockRejectedValueOnce(new AuthError(NO_BEARER_TOKEN));
    socket.connect();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(sockets.instances).toHaveLength(0);
    expect(errors.map((e) => e.message)).toEqual(["No bearer token set. Please authenticate first."]);
    expect(socket.state).toBe("disconnected");
    // connect() starts again once the user has authorised.
    socket.connect();
    await settle();
    expect(sockets.instances).toHaveLength(1);
    socket.close();
  });

  it("works with DataClient: a refreshed token for api-auth and the subscribe call with conn", async () => {
    const NOW = 1_763_700_000_000;
    const server = fakeFetch();
    const storage = new MemoryTokenStorage();
    storage.set(keys.accessToken, "at-old");
    storage.set(keys.refreshToken, "rt-0");
    storage.set(keys.expiresAt, String(NOW + 3000 * 1000));
    const client = new DataClient({
      baseUrl: "http://localhost:8787",
      clientId: "app-1",
      redirectUri: "http://127.0.0.1/cb",
      storage,
      fetch: server.fetch,
      now: () => NOW,
    });
    server.once("POST", "/data-api/token", json({ access_token: "at-new", refresh_token: "rt-1", expires_in: 3600 }));
    server.on("POST", `/data-api/Registration/${REG}/subscribe`, json({ channel: `Registration/${REG}` }));
    const sockets = fakeSockets();
    const socket = client.socket({ WebSocket: sockets.WebSocket, instance: "i-1" });
    await socket.subscribe("Registration", REG, () => undefined);
    socket.connect();
    await settle();
    const ws = sockets.last();
    expect(ws.url).toBe("ws://localhost:8787/data-api/socket?instance=i-1");
    ws.serverOpen();
    expect(ws.sent).toEqual([{ type: "api-auth", token: "at-new" }]);
    ws.serverSend(hello("conn-9"));
    await settle();
    const [subscribe] = server.callsTo("POST", `/data-api/Registration/${REG}/subscribe`);
    expect(subscribe?.url.searchParams.get("conn")).toBe("conn-9");
    expect(subscribe?.headers.get("Authorization")).toBe("Bearer at-new");
    socket.close();
  });
});
