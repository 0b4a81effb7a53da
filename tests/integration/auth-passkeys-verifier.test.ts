// The passkey checks of core/auth/passkey through the endpoints, in workerd's WebCrypto (decision 0037).
import { describe, expect, it } from "vitest";
import recorded from "../../core/auth/passkey/simplewebauthn-recorded.json";
import { passkeys, webauthnChallenges } from "../../schema/d1";
import { authPost, createUserWithPassword, db, signIn } from "./auth-fixtures";
import { SoftAuthenticator, type SoftAlgorithm } from "./soft-authenticator";

const HOST = "localhost";
const ORIGIN = "http://localhost:8787";
const FAILED = "Passkey authentication failed. Please try again or use another sign-in method.";

async function register(email: string, algorithm: SoftAlgorithm) {
  const user = await createUserWithPassword(email, "glacier-ski-42");
  const cookie = await signIn(HOST, email, "glacier-ski-42");
  const authenticator = await SoftAuthenticator.create(algorithm);
  const options = await (
    await authPost(HOST, "/_auth/passkey/register/begin", { user_id: user.id }, { cookie })
  ).json<{ challenge: string; rp: { id: string } }>();
  const credential = await authenticator.register(options, ORIGIN);
  const done = await authPost(HOST, "/_auth/passkey/register/complete", { user_id: user.id, credential }, { cookie });
  return { user, cookie, authenticator, credential, done: await done.json<Record<string, unknown>>() };
}

async function beginSignIn(userId: string | null) {
  return (await authPost(HOST, "/_auth/passkey/authenticate/begin", { user_id: userId })).json<{ challenge: string }>();
}

describe("passkeys verified with @oslojs and WebCrypto", () => {
  it.each(["RS256", "EdDSA"] as const)("registers a %s passkey and signs in with it", async (algorithm) => {
    const { user, authenticator, done } = await register(`${algorithm.toLowerCase()}@example.com`, algorithm);
    expect(done).toMatchObject({ verified: true });
    const credential = await authenticator.authenticate(await beginSignIn(user.id), ORIGIN, HOST);
    const [reply] = await (await authPost(HOST, "/_auth/passkey/authenticate/complete", { credential, goto: "/manage" })).json<Record<string, unknown>[]>();
    expect(reply).toMatchObject({ status: "verified", user_id: user.id });
  });

  it("stores the COSE key bytes base64url, as @simplewebauthn/server did", async () => {
    const { authenticator } = await register("cose@example.com", "ES256");
    const stored = await db().query.passkeys.findFirst({ where: (p, { eq }) => eq(p.id, authenticator.id) });
    const cose = await authenticator.coseKey();
    expect(stored).toMatchObject({
      publicKey: btoa(String.fromCharCode(...cose))
        .replace(/\+/g, "-")
        .replace(/\//g, "_")
        .replace(/=+$/, ""),
      counter: 0,
    });
    expect(stored?.transports).toEqual(["internal"]);
  });

  it.each(["ES256", "RS256", "EdDSA"] as const)("signs in with a %s passkey stored by @simplewebauthn/server before the change", async (algorithm) => {
    const sample = recorded[algorithm];
    const user = await createUserWithPassword(`old-${algorithm.toLowerCase()}@example.com`, "glacier-ski-42");
    const now = Date.now();
    await db()
      .insert(passkeys)
      .values({
        id: sample.credentialId,
        userId: user.id,
        domain: HOST,
        publicKey: sample.storedPublicKey,
        counter: 0,
        transports: ["internal"],
        createdAt: now,
      });
    // The recorded assertion answers a recorded challenge: put it where begin would have.
    await db()
      .insert(webauthnChallenges)
      .values({ id: crypto.randomUUID(), challenge: sample.challenge, kind: "authenticate", domain: HOST, userId: user.id, expiresAt: now + 60_000 });
    const [reply] = await (await authPost(HOST, "/_auth/passkey/authenticate/complete", { credential: sample.assertion })).json<Record<string, unknown>[]>();
    expect(reply).toMatchObject({ status: "verified", user_id: user.id });
    expect((await db().query.passkeys.findFirst({ where: (p, { eq }) => eq(p.id, sample.credentialId) }))?.counter).toBe(1);
  });

  it("refuses the same assertion sent twice: its challenge was used up", async () => {
    const { user, authenticator } = await register("replay-assertion@example.com", "ES256");
    const credential = await authenticator.authenticate(await beginSignIn(user.id), ORIGIN, HOST);
    const first = await authPost(HOST, "/_auth/passkey/authenticate/complete", { credential });
    expect((await first.json<Record<string, unknown>[]>())[0]).toMatchObject({ status: "verified" });
    const again = await authPost(HOST, "/_auth/passkey/authenticate/complete", { credential });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual([{ status: "failed", message: FAILED }]);
  });

  it("refuses the same registration sent twice, and one signed by another authenticator's key for this credential", async () => {
    const { user, cookie, credential } = await register("replay-register@example.com", "ES256");
    const again = await authPost(HOST, "/_auth/passkey/register/complete", { user_id: user.id, credential }, { cookie });
    expect(await again.json()).toEqual({ verified: false, error: "Passkey registration was cancelled or timed out" });
    const thief = await SoftAuthenticator.create();
    const forged = await thief.authenticate(await beginSignIn(user.id), ORIGIN, HOST);
    const refused = await authPost(HOST, "/_auth/passkey/authenticate/complete", { credential: { ...forged, id: credential.id, rawId: credential.id } });
    expect(await refused.json()).toEqual([{ status: "failed", message: FAILED }]);
  });
});
