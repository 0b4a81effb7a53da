import { describe, expect, it } from "vitest";
import { DataClient } from "./client";
import { SignInError } from "./errors";
import { MemoryTokenStorage } from "./storage";
import { fakeFetch, json } from "./test-fakes";

const ATTEMPT = "0b7e2a54-1111-4222-8333-444455556666";

function setup() {
  const server = fakeFetch();
  const client = new DataClient({
    baseUrl: "https://club.example",
    clientId: "app-1",
    redirectUri: "https://app.example/cb",
    storage: new MemoryTokenStorage(),
    fetch: server.fetch,
  });
  return { server, client };
}

async function failure(promise: Promise<unknown>): Promise<SignInError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SignInError);
  return error as SignInError;
}

describe("createSignInAttempt", () => {
  it("POSTs JSON with credentials, provider password by default and goto URI-encoded", async () => {
    const { client, server } = setup();
    server.once("POST", "/_auth/attempt", json({ attempt_id: ATTEMPT, method: "password" }));
    const reply = await client.createSignInAttempt({ email: "jo@example.com", goto: "/club/a b?x=1&y=2", domain: "club.example" });
    expect(reply.attempt_id).toBe(ATTEMPT);
    const [call] = server.calls;
    expect(call?.credentials).toBe("include");
    expect(call?.headers.get("Content-Type")).toBe("application/json");
    expect(JSON.parse(call?.body ?? "")).toEqual({
      provider: "password",
      email: "jo@example.com",
      goto: "%2Fclub%2Fa%20b%3Fx%3D1%26y%3D2",
      domain: "club.example",
    });
  });

  it("sends a user id and another provider", async () => {
    const { client, server } = setup();
    server.once("POST", "/_auth/attempt", json({ attempt_id: ATTEMPT }));
    await client.createSignInAttempt({ user_id: "u-1", provider: "link" });
    expect(JSON.parse(server.calls[0]?.body ?? "")).toEqual({ provider: "link", user_id: "u-1" });
  });

  it("needs an email or a user id", async () => {
    const { client, server } = setup();
    const error = await failure(client.createSignInAttempt({ goto: "/" }));
    expect(error.message).toBe("Either email or userID must be provided to create a sign-in attempt");
    expect(server.calls).toHaveLength(0);
  });

  it("throws 'Failed to create sign-in attempt' with the server's error as detail", async () => {
    const { client, server } = setup();
    server.once("POST", "/_auth/attempt", json({ error: "Invalid email address" }, { status: 404 }));
    const error = await failure(client.createSignInAttempt({ email: "nobody@example.com" }));
    expect(error.message).toBe("Failed to create sign-in attempt");
    expect(error.detail).toBe("Invalid email address");
    expect(error.status).toBe(404);
  });

  it("throws the same when the request cannot be made", async () => {
    const { client, server } = setup();
    server.once("POST", "/_auth/attempt", () => Promise.reject(new TypeError("fetch failed")));
    expect((await failure(client.createSignInAttempt({ email: "jo@example.com" }))).message).toBe("Failed to create sign-in attempt");
  });
});

describe("verifySignInAttempt", () => {
  const verified = {
    attempt_id: ATTEMPT,
    status: "verified",
    token: "t",
    message: "",
    user_id: "u-1",
    verify: [],
    prompt_passkey: false,
    host: "club.example",
    goto: null,
  };

  it("POSTs attempt_id and verify with credentials and returns the two-element reply", async () => {
    const { client, server } = setup();
    server.once("POST", "/_auth/verify", json([verified, { attempt_id: null, status: "verified" }]));
    const [reply] = await client.verifySignInAttempt(ATTEMPT, { password: "correct horse" });
    expect(reply.status).toBe("verified");
    const [call] = server.calls;
    expect(call?.credentials).toBe("include");
    expect(JSON.parse(call?.body ?? "")).toEqual({ attempt_id: ATTEMPT, verify: { password: "correct horse" } });
  });

  it.each([
    ["an object", { status: "verified" }],
    ["an array of one", [{ status: "verified" }]],
    ["an array of three", [{}, {}, {}]],
  ])("throws 'Failed to verify sign-in attempt' on %s", async (_name, body) => {
    const { client, server } = setup();
    server.once("POST", "/_auth/verify", json(body));
    expect((await failure(client.verifySignInAttempt(ATTEMPT, { totp: "123456" }))).message).toBe("Failed to verify sign-in attempt");
  });

  it("throws on a non-2xx even with two elements, with the first element's message as detail", async () => {
    const { client, server } = setup();
    server.once(
      "POST",
      "/_auth/verify",
      json(
        [
          { ...verified, status: "failed", message: "Incorrect password." },
          { attempt_id: null, status: "failed" },
        ],
        { status: 401 },
      ),
    );
    const error = await failure(client.verifySignInAttempt(ATTEMPT, { password: "wrong" }));
    expect(error.message).toBe("Failed to verify sign-in attempt");
    expect(error.detail).toBe("Incorrect password.");
  });
});
