import { describe, expect, it } from "vitest";
import { DataClient } from "./client";
import { AuthError, TOKEN_REFRESH_FAILED } from "./errors";
import { MemoryTokenStorage, tokenStorageKeys as keys, type TokenStorage } from "./storage";
import { fakeFetch, json } from "./test-fakes";
import { expiryFrom } from "./tokens";

const NOW = 1_763_700_000_000;

function setup(tokens: { access?: string; refresh?: string; remainingSeconds?: number }, storage: TokenStorage = new MemoryTokenStorage()) {
  const server = fakeFetch();
  let now = NOW;
  const client = new DataClient({
    baseUrl: "https://club.example",
    clientId: "app-1",
    redirectUri: "https://app.example/cb",
    storage,
    fetch: server.fetch,
    now: () => now,
  });
  const ready = (async () => {
    if (tokens.access) await storage.set(keys.accessToken, tokens.access);
    if (tokens.refresh) await storage.set(keys.refreshToken, tokens.refresh);
    if (tokens.remainingSeconds !== undefined) await storage.set(keys.expiresAt, String(NOW + tokens.remainingSeconds * 1000));
  })();
  server.on("GET", "/data-api/me", (call) => json({ auth: call.headers.get("Authorization") }));
  return { server, client, storage, ready, tick: (ms: number) => (now += ms) };
}

function refreshReply(n: number) {
  return json({ access_token: `at-${n}`, refresh_token: `rt-${n}`, token_type: "Bearer", expires_in: 3600 });
}

async function authOf(client: DataClient): Promise<string> {
  const body = (await (await client.request("GET", "/data-api/me")).json()) as { auth: string };
  return body.auth;
}

describe("refresh before a call", () => {
  it("refreshes when exactly 3000 s remain, and stores the rotated pair", async () => {
    const { client, server, storage, ready } = setup({ access: "at-0", refresh: "rt-0", remainingSeconds: 3000 });
    await ready;
    server.once("POST", "/data-api/token", refreshReply(1));
    expect(await authOf(client)).toBe("Bearer at-1");
    const [refresh] = server.callsTo("POST", "/data-api/token");
    expect(Object.fromEntries(new URLSearchParams(refresh?.body ?? ""))).toEqual({ grant_type: "refresh_token", refresh_token: "rt-0", client_id: "app-1" });
    expect(storage.get(keys.refreshToken)).toBe("rt-1");
    expect(storage.get(keys.expiresAt)).toBe(String(NOW + 3_600_000));
  });

  it("does not refresh when 3001 s remain", async () => {
    const { client, server, ready } = setup({ access: "at-0", refresh: "rt-0", remainingSeconds: 3001 });
    await ready;
    expect(await authOf(client)).toBe("Bearer at-0");
    expect(server.callsTo("POST", "/data-api/token")).toHaveLength(0);
  });

  it("refreshes once the clock has moved into the last 3000 s", async () => {
    const { client, server, ready, tick } = setup({ access: "at-0", refresh: "rt-0", remainingSeconds: 3600 });
    await ready;
    server.once("POST", "/data-api/token", refreshReply(1));
    expect(await authOf(client)).toBe("Bearer at-0");
    tick(599_000);
    expect(await authOf(client)).toBe("Bearer at-0");
    tick(1000);
    expect(await authOf(client)).toBe("Bearer at-1");
  });

  it("shares one refresh between concurrent calls, since refresh tokens rotate", async () => {
    const { client, server, ready } = setup({ access: "at-0", refresh: "rt-0", remainingSeconds: 10 });
    await ready;
    server.once("POST", "/data-api/token", refreshReply(1));
    const auths = await Promise.all([authOf(client), authOf(client), authOf(client)]);
    expect(auths).toEqual(["Bearer at-1", "Bearer at-1", "Bearer at-1"]);
    expect(server.callsTo("POST", "/data-api/token")).toHaveLength(1);
  });

  it("refreshes when there is no access token but a refresh token", async () => {
    const { client, server, ready } = setup({ refresh: "rt-0" });
    await ready;
    server.once("POST", "/data-api/token", refreshReply(1));
    expect(await authOf(client)).toBe("Bearer at-1");
  });

  it("throws AuthError with the exact message when there is no token at all, without calling", async () => {
    const { client, server } = setup({});
    const error = await client.request("GET", "/data-api/me").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as Error).message).toBe("No bearer token set. Please authenticate first.");
    expect(server.calls).toHaveLength(0);
  });

  it("clears every token and throws when the refresh is refused", async () => {
    const { client, server, storage, ready } = setup({ access: "at-0", refresh: "rt-0", remainingSeconds: 100 });
    await ready;
    server.once("POST", "/data-api/token", json({ error: "invalid_grant", error_description: "revoked" }, { status: 400 }));
    const error = await client.request("GET", "/data-api/me").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).message).toBe(TOKEN_REFRESH_FAILED);
    expect((error as AuthError).error).toBe("invalid_grant");
    expect([storage.get(keys.accessToken), storage.get(keys.refreshToken), storage.get(keys.expiresAt)]).toEqual([null, null, null]);
    expect(server.callsTo("GET", "/data-api/me")).toHaveLength(0);
    expect(await client.isAuthenticated()).toBe(false);
  });

  it("keeps the tokens and the still-valid access token when the token endpoint is unreachable", async () => {
    const { client, server, storage, ready } = setup({ access: "at-0", refresh: "rt-0", remainingSeconds: 100 });
    await ready;
    server.once("POST", "/data-api/token", () => Promise.reject(new TypeError("fetch failed")));
    expect(await authOf(client)).toBe("Bearer at-0");
    expect(storage.get(keys.refreshToken)).toBe("rt-0");
  });

  it("keeps the tokens on a 5xx from the token endpoint", async () => {
    const { client, server, storage, ready } = setup({ refresh: "rt-0" });
    await ready;
    server.once("POST", "/data-api/token", json({}, { status: 503, statusText: "Service Unavailable" }));
    await expect(client.request("GET", "/data-api/me")).rejects.toThrow("SDK Fetch Error: 503 Service Unavailable");
    expect(storage.get(keys.refreshToken)).toBe("rt-0");
  });

  it("uses the pair another tab rotated in shared storage instead of clearing it", async () => {
    const { client, server, storage, ready } = setup({ access: "at-0", refresh: "rt-0", remainingSeconds: 100 });
    await ready;
    server.once("POST", "/data-api/token", () => {
      // Meanwhile another tab refreshed with rt-0 first, so this refresh is refused.
      storage.set(keys.accessToken, "at-other");
      storage.set(keys.refreshToken, "rt-other");
      return json({ error: "invalid_grant" }, { status: 400 });
    });
    expect(await authOf(client)).toBe("Bearer at-other");
    expect(storage.get(keys.refreshToken)).toBe("rt-other");
  });

  it("works with an async storage", async () => {
    const values = new Map<string, string>();
    const asyncStorage: TokenStorage = {
      get: async (key) => values.get(key) ?? null,
      set: async (key, value) => void values.set(key, value),
      remove: async (key) => void values.delete(key),
    };
    const { client, server, ready } = setup({ access: "at-0", refresh: "rt-0", remainingSeconds: 5 }, asyncStorage);
    await ready;
    server.once("POST", "/data-api/token", refreshReply(1));
    expect(await authOf(client)).toBe("Bearer at-1");
    expect(values.get(keys.refreshToken)).toBe("rt-1");
  });
});

describe("expiryFrom", () => {
  it("prefers expires_in, which does not depend on the two clocks agreeing", () => {
    expect(expiryFrom({ access_token: "a", expires_in: 3600, expires_at: 1 }, NOW)).toBe(NOW + 3_600_000);
  });

  it("reads expires_at in milliseconds or in seconds", () => {
    expect(expiryFrom({ access_token: "a", expires_at: NOW + 5000 }, 0)).toBe(NOW + 5000);
    expect(expiryFrom({ access_token: "a", expires_at: 1_763_703_600 }, 0)).toBe(1_763_703_600_000);
    expect(expiryFrom({ access_token: "a" }, NOW)).toBeNull();
  });
});
