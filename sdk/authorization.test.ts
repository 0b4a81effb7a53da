import { describe, expect, it } from "vitest";
import { DataClient } from "./client";
import { AuthorizationError } from "./errors";
import { MemoryTokenStorage, tokenStorageKeys as keys } from "./storage";
import { fakeFetch, json } from "./test-fakes";

const NOW = 1_763_700_000_000;

function setup() {
  const server = fakeFetch();
  const storage = new MemoryTokenStorage();
  const client = new DataClient({
    baseUrl: "https://club.example/",
    clientId: "app-1",
    redirectUri: "http://127.0.0.1:8765/callback",
    scope: ["registrations", "races"],
    storage,
    fetch: server.fetch,
    now: () => NOW,
  });
  return { server, storage, client };
}

async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return Buffer.from(digest).toString("base64url");
}

async function rejection(promise: Promise<unknown>): Promise<AuthorizationError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthorizationError);
  return error as AuthorizationError;
}

describe("beginAuthorization", () => {
  it("stores verifier and state and returns the authorize URL with an S256 challenge", async () => {
    const { client, storage } = setup();
    const url = new URL(await client.beginAuthorization());
    expect(`${url.origin}${url.pathname}`).toBe("https://club.example/data-api/authorize");
    const params = Object.fromEntries(url.searchParams);
    const verifier = storage.get(keys.codeVerifier) as string;
    expect(params).toEqual({
      response_type: "code",
      client_id: "app-1",
      redirect_uri: "http://127.0.0.1:8765/callback",
      scope: "registrations races",
      state: storage.get(keys.state),
      code_challenge: await s256(verifier),
      code_challenge_method: "S256",
    });
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect([...url.searchParams.keys()]).toEqual(["response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge", "code_challenge_method"]);
  });

  it("makes a new verifier and state each time", async () => {
    const { client, storage } = setup();
    await client.beginAuthorization();
    const first = [storage.get(keys.codeVerifier), storage.get(keys.state)];
    await client.beginAuthorization();
    expect([storage.get(keys.codeVerifier), storage.get(keys.state)]).not.toEqual(first);
  });
});

describe("completeAuthorization", () => {
  it("exchanges the code with the verifier, stores the tokens and their expiry, and forgets verifier and state", async () => {
    const { client, storage, server } = setup();
    const state = new URL(await client.beginAuthorization()).searchParams.get("state");
    const verifier = storage.get(keys.codeVerifier);
    server.once(
      "POST",
      "/data-api/token",
      json({ access_token: "at-1", refresh_token: "rt-1", token_type: "Bearer", expires_in: 3600, expires_at: 1_763_703_600 }),
    );
    await client.completeAuthorization(`http://127.0.0.1:8765/callback?code=the-code&state=${state}`);
    const [call] = server.calls;
    expect(call?.headers.get("Content-Type")).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(call?.body ?? ""))).toEqual({
      grant_type: "authorization_code",
      code: "the-code",
      redirect_uri: "http://127.0.0.1:8765/callback",
      client_id: "app-1",
      code_verifier: verifier,
    });
    expect(storage.get(keys.accessToken)).toBe("at-1");
    expect(storage.get(keys.refreshToken)).toBe("rt-1");
    expect(storage.get(keys.expiresAt)).toBe(String(NOW + 3600 * 1000));
    expect(storage.get(keys.codeVerifier)).toBeNull();
    expect(storage.get(keys.state)).toBeNull();
  });

  it("accepts the redirect as a path relative to the redirect URI", async () => {
    const { client, storage, server } = setup();
    const state = new URL(await client.beginAuthorization()).searchParams.get("state");
    server.once("POST", "/data-api/token", json({ access_token: "at-1", refresh_token: "rt-1", expires_in: 3600 }));
    await client.completeAuthorization(`/callback?code=c&state=${state}`);
    expect(storage.get(keys.accessToken)).toBe("at-1");
  });

  it("fails on a state mismatch without calling the token endpoint", async () => {
    const { client, server, storage } = setup();
    await client.beginAuthorization();
    const error = await rejection(client.completeAuthorization("http://127.0.0.1:8765/callback?code=c&state=someone-elses"));
    expect(error.error).toBe("state_mismatch");
    expect(server.calls).toHaveLength(0);
    expect(storage.get(keys.accessToken)).toBeNull();
  });

  it("fails when no authorisation was started here (no stored state)", async () => {
    const { client, server } = setup();
    const error = await rejection(client.completeAuthorization("http://127.0.0.1:8765/callback?code=c&state=s"));
    expect(error.error).toBe("no_pending_authorization");
    expect(server.calls).toHaveLength(0);
  });

  it.each([
    ["no code", "?state=STATE"],
    ["no state", "?code=c"],
    ["an empty code", "?code=&state=STATE"],
  ])("fails on a redirect with %s", async (_name, search) => {
    const { client, server } = setup();
    const state = new URL(await client.beginAuthorization()).searchParams.get("state") as string;
    const error = await rejection(client.completeAuthorization(`http://127.0.0.1:8765/callback${search.replace("STATE", state)}`));
    expect(error.error).toBe("invalid_redirect");
    expect(server.calls).toHaveLength(0);
  });

  it("reports the error of an error redirect", async () => {
    const { client } = setup();
    const state = new URL(await client.beginAuthorization()).searchParams.get("state");
    const error = await rejection(
      client.completeAuthorization(`http://127.0.0.1:8765/callback?error=access_denied&error_description=The+user+said+no&state=${state}`),
    );
    expect(error.error).toBe("access_denied");
    expect(error.description).toBe("The user said no");
    expect(error.message).toBe("Authorization error: access_denied (The user said no)");
  });

  it("reports a refused code and forgets the spent verifier", async () => {
    const { client, server, storage } = setup();
    const state = new URL(await client.beginAuthorization()).searchParams.get("state");
    server.once(
      "POST",
      "/data-api/token",
      json({ error: "invalid_grant", error_description: "The code is invalid, expired or already used" }, { status: 400 }),
    );
    const error = await rejection(client.completeAuthorization(`http://127.0.0.1:8765/callback?code=c&state=${state}`));
    expect(error.error).toBe("invalid_grant");
    expect(storage.get(keys.accessToken)).toBeNull();
    expect(storage.get(keys.codeVerifier)).toBeNull();
  });
});
