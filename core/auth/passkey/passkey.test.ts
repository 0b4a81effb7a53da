import { sha256 } from "@oslojs/crypto/sha2";
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SoftAuthenticator, type SoftAlgorithm } from "../../../tests/integration/soft-authenticator";
import { fcParams } from "../../testing/fast-check";
import { checkAuthenticatorData, verifyAssertion, verifyRegistration, type PasskeyResponseJSON, type RelyingParty } from "./ceremony";
import { ecdsaSignatureFromDer, importCredentialKey, verifyCredentialSignature } from "./credential-key";
import { authenticationOptions, newChallenge, registrationOptions } from "./options";
import recorded from "./simplewebauthn-recorded.json";

const RP: RelyingParty = { id: "localhost", origin: "http://localhost:8787" };
const b64 = encodeBase64urlNoPadding;
const bytes = decodeBase64urlIgnorePadding;
const text = (value: string) => new TextEncoder().encode(value);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
};
const u32 = (n: number) => new Uint8Array([n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);

/** What the refusal says: each test names the check it means to trip, so a refusal by another check fails it. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  return "accepted";
}

async function registered(algorithm: SoftAlgorithm = "ES256") {
  const authenticator = await SoftAuthenticator.create(algorithm);
  const challenge = newChallenge();
  const credential = await verifyRegistration(await authenticator.register({ challenge, rp: { id: RP.id } }, RP.origin), { challenge, rp: RP });
  return { authenticator, stored: { id: credential.id, publicKey: credential.publicKey, counter: credential.counter }, credential };
}

/** An assertion built by hand, for the cases SoftAuthenticator.authenticate does not make: any flags, data after them, any signer. */
async function handmadeAssertion(
  signer: SoftAuthenticator,
  input: { id: string; challenge: string; flags?: number; counter?: number; rpId?: string; tail?: Uint8Array; clientData?: Record<string, unknown> },
) {
  const authData = concat(sha256(text(input.rpId ?? RP.id)), new Uint8Array([input.flags ?? 0x05]), u32(input.counter ?? 1), input.tail ?? new Uint8Array());
  const clientData = text(JSON.stringify({ type: "webauthn.get", challenge: input.challenge, origin: RP.origin, crossOrigin: false, ...input.clientData }));
  const signature = await signer.sign(concat(authData, sha256(clientData)));
  return {
    id: input.id,
    rawId: input.id,
    type: "public-key",
    response: { clientDataJSON: b64(clientData), authenticatorData: b64(authData), signature: b64(signature) },
  };
}

/** A minimal DER encoding of r||s (the test's own, independent of the decoder under test). */
function derOf(raw: Uint8Array): Uint8Array {
  const integer = (value: Uint8Array) => {
    let start = 0;
    while (start < value.length - 1 && value[start] === 0) start++;
    const trimmed = value[start]! & 0x80 ? concat(new Uint8Array([0]), value.subarray(start)) : value.subarray(start);
    return concat(new Uint8Array([0x02, trimmed.length]), trimmed);
  };
  const body = concat(integer(raw.subarray(0, 32)), integer(raw.subarray(32)));
  return concat(new Uint8Array([0x30, body.length]), body);
}

describe("ECDSA signatures in DER", () => {
  it("decodes any minimal DER r, s back to 32-byte r||s, padding short integers", () => {
    const component = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((c) => c.some((b) => b !== 0));
    fc.assert(
      fc.property(component, component, (r, s) => {
        const raw = concat(r, s);
        expect(ecdsaSignatureFromDer(derOf(raw))).toEqual(raw);
      }),
      fcParams(),
    );
    const short = concat(new Uint8Array(31), new Uint8Array([7]), new Uint8Array(32).fill(0x80));
    expect([...derOf(short).subarray(0, 5)]).toEqual([0x30, 0x26, 0x02, 0x01, 7]);
    expect(ecdsaSignatureFromDer(derOf(short))).toEqual(short);
  });

  it("refuses what is not strict DER: a padded or negative integer, a long one, zero, a wrong length, bytes after", () => {
    const r = [0x02, 0x01, 0x05];
    const s = [0x02, 0x01, 0x06];
    const seq = (...body: number[]) => new Uint8Array([0x30, body.length, ...body]);
    expect([...ecdsaSignatureFromDer(seq(...r, ...s)).subarray(30, 34)]).toEqual([0, 5, 0, 0]);
    expect(() => ecdsaSignatureFromDer(seq(0x02, 0x02, 0x00, 0x05, ...s))).toThrow("signature: INTEGER not minimal");
    expect(() => ecdsaSignatureFromDer(seq(0x02, 0x01, 0x85, ...s))).toThrow("signature: negative INTEGER");
    expect(() => ecdsaSignatureFromDer(seq(0x02, 33, 0x01, ...new Array(32).fill(1), ...s))).toThrow("signature: INTEGER too long");
    expect(() => ecdsaSignatureFromDer(seq(0x02, 0x01, 0x00, ...s))).toThrow("signature: INTEGER is zero");
    expect(() => ecdsaSignatureFromDer(new Uint8Array([0x30, 7, ...r, ...s]))).toThrow("signature: not one DER SEQUENCE");
    expect(() => ecdsaSignatureFromDer(new Uint8Array([0x30, 6, ...r, ...s, 0]))).toThrow("signature: not one DER SEQUENCE");
    expect(() => ecdsaSignatureFromDer(seq(...r, ...s, 0x00))).toThrow("signature: bytes after s");
    expect(() => ecdsaSignatureFromDer(seq(0x04, 0x01, 0x05, ...s))).toThrow("signature: INTEGER expected");
  });
});

describe("COSE public keys", () => {
  it.each(["ES256", "RS256", "EdDSA"] as const)("imports a %s key and checks its signatures, refusing another key's", async (algorithm) => {
    const own = await SoftAuthenticator.create(algorithm);
    const other = await SoftAuthenticator.create(algorithm);
    const key = await importCredentialKey(await own.coseKey());
    const message = text("authenticatorData || hash");
    expect(key.algorithm).toBe({ ES256: -7, RS256: -257, EdDSA: -8 }[algorithm]);
    expect(await verifyCredentialSignature(key, await own.sign(message), message)).toBe(true);
    expect(await verifyCredentialSignature(key, await other.sign(message), message)).toBe(false);
    expect(await verifyCredentialSignature(key, await own.sign(message), text("another message"))).toBe(false);
  });

  it("refuses a key of an algorithm not offered, without alg, of the wrong type or curve, off its curve, or with bytes after it", async () => {
    // CBOR maps written out: {1: kty, 3: alg, -1: crv, -2: x, -3: y}.
    const ec2 = (alg: number[], crv: number, x: Uint8Array, y: Uint8Array) =>
      new Uint8Array([0xa5, 0x01, 0x02, 0x03, ...alg, 0x20, crv, 0x21, 0x58, 32, ...x, 0x22, 0x58, 32, ...y]);
    const good = await (await SoftAuthenticator.create("ES256")).coseKey();
    const [x, y] = [good.slice(10, 42), good.slice(45, 77)];
    expect((await importCredentialKey(ec2([0x26], 1, x, y))).algorithm).toBe(-7);
    expect(await refusal(importCredentialKey(ec2([0x38, 0x22], 2, x, y)))).toBe("unsupported algorithm -35");
    expect(await refusal(importCredentialKey(ec2([0x26], 2, x, y)))).toBe("ES256 key on curve 2");
    expect(await refusal(importCredentialKey(new Uint8Array([0xa4, 0x01, 0x02, 0x20, 0x01, 0x21, 0x58, 32, ...x, 0x22, 0x58, 32, ...y])))).toBe(
      "public key has no numeric alg",
    );
    expect(await refusal(importCredentialKey(ec2([0x26], 1, x, new Uint8Array(32).fill(3))))).toBe("public key parameters are not valid");
    expect(await refusal(importCredentialKey(concat(good, new Uint8Array([0]))))).toBe("public key is not one CBOR item");
    const okpAsEs256 = new Uint8Array([0xa4, 0x01, 0x01, 0x03, 0x26, 0x20, 0x06, 0x21, 0x58, 32, ...x]);
    expect(await refusal(importCredentialKey(okpAsEs256))).toBe("ES256 key is not EC2");
    expect(await refusal(importCredentialKey(new Uint8Array([0x83, 1, 2, 3])))).toBe("public key is not a CBOR map");
  });

  it.each(["ES256", "RS256", "EdDSA"] as const)(
    "accepts a %s assertion that @simplewebauthn/server verified, against the key as it stored it",
    async (algorithm) => {
      const sample = recorded[algorithm];
      const stored = { id: sample.credentialId, publicKey: bytes(sample.storedPublicKey), counter: 0 };
      expect(await verifyAssertion(sample.assertion, { challenge: sample.challenge, rp: RP, stored })).toEqual({ newCounter: 1, userVerified: true });
      const forged = {
        ...sample.assertion,
        response: {
          ...sample.assertion.response,
          authenticatorData: b64(concat(bytes(sample.assertion.response.authenticatorData).slice(0, 36), new Uint8Array([9]))),
        },
      };
      expect(await refusal(verifyAssertion(forged, { challenge: sample.challenge, rp: RP, stored }))).toBe("signature does not verify");
    },
  );
});

describe("registration", () => {
  it.each(["ES256", "RS256", "EdDSA"] as const)(
    "accepts a %s passkey with 'none' attestation and returns its COSE key, counter and transports",
    async (algorithm) => {
      const { authenticator, credential } = await registered(algorithm);
      expect(credential).toEqual({ id: authenticator.id, publicKey: await authenticator.coseKey(), counter: 0, transports: ["internal"], userVerified: true });
    },
  );

  async function registration(edit: (json: ReturnType<typeof JSON.parse>, clientData: Record<string, unknown>) => void, challenge = newChallenge()) {
    const authenticator = await SoftAuthenticator.create();
    const json = await authenticator.register({ challenge, rp: { id: RP.id } }, RP.origin);
    const clientData = JSON.parse(new TextDecoder().decode(bytes(json.response.clientDataJSON))) as Record<string, unknown>;
    edit(json, clientData);
    json.response.clientDataJSON = b64(text(JSON.stringify(clientData)));
    return refusal(verifyRegistration(json as PasskeyResponseJSON, { challenge, rp: RP }));
  }

  it("refuses another origin, another challenge, an assertion's type and a framed ceremony", async () => {
    expect(await registration((_, c) => (c.origin = "https://evil.example"))).toBe("origin https://evil.example");
    expect(await registration((_, c) => (c.challenge = newChallenge()))).toBe("challenge does not match");
    expect(await registration((_, c) => (c.type = "webauthn.get"))).toBe("clientData type webauthn.get");
    expect(await registration((_, c) => (c.crossOrigin = true))).toBe("cross-origin ceremony");
    expect(await registration((_, c) => (c.topOrigin = "https://evil.example"))).toBe("topOrigin present");
    expect(await registration((_, c) => (c.tokenBinding = { status: "bound" }))).toBe("tokenBinding status bound");
    expect(await registration((_, c) => (c.tokenBinding = { status: "not-supported" }))).toBe("accepted");
  });

  it("refuses a passkey made for another RP ID", async () => {
    const authenticator = await SoftAuthenticator.create();
    const challenge = newChallenge();
    const json = await authenticator.register({ challenge, rp: { id: "evil.example" } }, RP.origin);
    expect(await refusal(verifyRegistration(json, { challenge, rp: RP }))).toBe("rpIdHash does not match");
  });

  it("refuses a response whose ids disagree, of another type, or whose attestation is not readable or not 'none'-shaped", async () => {
    expect(await registration((json) => (json.rawId = "AAAA"))).toBe("id and rawId differ");
    expect(await registration((json) => ((json.id = "AAAA"), (json.rawId = "AAAA")))).toBe("credential id differs from authenticator data");
    expect(await registration((json) => (json.type = "password"))).toBe("credential type is not public-key");
    expect(await registration((json) => (json.response.attestationObject = "***"))).toBe("attestationObject is not base64url");
    const attestation = (json: { response: { attestationObject: string } }, from: string, to: string) => {
      const object = bytes(json.response.attestationObject);
      const at = object.findIndex((_, i) => new TextDecoder().decode(object.subarray(i, i + from.length)) === from);
      json.response.attestationObject = b64(concat(object.subarray(0, at), text(to), object.subarray(at + from.length)));
    };
    // "none" → "nonf": a format of no registry, same length so the CBOR stays well formed.
    expect(await registration((json) => attestation(json, "none", "nonf"))).toBe("attestation format nonf");
  });

  it("treats a statement of another known format as 'none', but refuses a 'none' statement that is not empty", async () => {
    const authenticator = await SoftAuthenticator.create();
    const challenge = newChallenge();
    const json = await authenticator.register({ challenge, rp: { id: RP.id } }, RP.origin);
    const object = bytes(json.response.attestationObject);
    // {"fmt": "none", "attStmt": {}, ...}: a3 63 'fmt' 64 'none' 67 'attStmt' a0 ...
    expect([...object.subarray(0, 19)]).toEqual([0xa3, 0x63, ...text("fmt"), 0x64, ...text("none"), 0x67, ...text("attStmt"), 0xa0]);
    const rest = object.subarray(19);
    const packed = concat(new Uint8Array([0xa3, 0x63]), text("fmt"), new Uint8Array([0x66]), text("packed"), new Uint8Array([0x67]), text("attStmt"));
    const statement = new Uint8Array([0xa2, 0x63, ...text("alg"), 0x26, 0x63, ...text("sig"), 0x41, 0x00]);
    json.response.attestationObject = b64(concat(packed, statement, rest));
    expect((await verifyRegistration(json, { challenge, rp: RP })).id).toBe(authenticator.id);
    json.response.attestationObject = b64(concat(object.subarray(0, 18), statement, rest));
    expect(await refusal(verifyRegistration(json, { challenge, rp: RP }))).toBe("none attestation with a statement");
  });
});

describe("authenticator data", () => {
  const head = (flags: number) => concat(sha256(text(RP.id)), new Uint8Array([flags]), u32(3));

  it("reads the counter and UV, and refuses no user presence, a backup without eligibility, short or leftover bytes", () => {
    expect(checkAuthenticatorData(head(0x05), RP)).toEqual({ userVerified: true, counter: 3, credential: null });
    expect(checkAuthenticatorData(head(0x01 | 0x08 | 0x10), RP)).toMatchObject({ userVerified: false });
    expect(() => checkAuthenticatorData(head(0x04), RP)).toThrow("user not present");
    expect(() => checkAuthenticatorData(head(0x01 | 0x10), RP)).toThrow("backed up but not backup-eligible");
    expect(() => checkAuthenticatorData(head(0x01).subarray(0, 36), RP)).toThrow("authenticator data shorter than 37 bytes");
    expect(() => checkAuthenticatorData(concat(head(0x01), new Uint8Array([0])), RP)).toThrow("leftover bytes in authenticator data");
    // Extensions {"credProtect": 2} announced by the ED flag are read past; unannounced they are leftovers.
    const extensions = concat(new Uint8Array([0xa1, 0x6b]), text("credProtect"), new Uint8Array([0x02]));
    expect(checkAuthenticatorData(concat(head(0x81), extensions), RP).counter).toBe(3);
    expect(() => checkAuthenticatorData(concat(head(0x01), extensions), RP)).toThrow("leftover bytes in authenticator data");
    expect(() => checkAuthenticatorData(concat(head(0x81), new Uint8Array([0x41, 0])), RP)).toThrow("extensions is not an object");
    expect(() => checkAuthenticatorData(concat(sha256(text("evil.example")), new Uint8Array([0x05]), u32(3)), RP)).toThrow("rpIdHash does not match");
  });
});

describe("assertions", () => {
  it.each(["ES256", "RS256", "EdDSA"] as const)("accepts a %s assertion and returns the new counter and UV", async (algorithm) => {
    const { authenticator, stored } = await registered(algorithm);
    const challenge = newChallenge();
    expect(await verifyAssertion(await authenticator.authenticate({ challenge }, RP.origin, RP.id, 4, false), { challenge, rp: RP, stored })).toEqual({
      newCounter: 4,
      userVerified: false,
    });
  });

  it("refuses a signature by another key, another RP ID, another origin, and an answer to an earlier challenge", async () => {
    const { authenticator, stored } = await registered();
    const thief = await SoftAuthenticator.create();
    const challenge = newChallenge();
    expect(await refusal(verifyAssertion(await handmadeAssertion(thief, { id: stored.id, challenge }), { challenge, rp: RP, stored }))).toBe(
      "signature does not verify",
    );
    expect(await refusal(verifyAssertion(await authenticator.authenticate({ challenge }, RP.origin, "evil.example"), { challenge, rp: RP, stored }))).toBe(
      "rpIdHash does not match",
    );
    expect(await refusal(verifyAssertion(await authenticator.authenticate({ challenge }, "http://localhost:9999", RP.id), { challenge, rp: RP, stored }))).toBe(
      "origin http://localhost:9999",
    );
    const earlier = await authenticator.authenticate({ challenge }, RP.origin, RP.id);
    expect(await refusal(verifyAssertion(earlier, { challenge: newChallenge(), rp: RP, stored }))).toBe("challenge does not match");
    expect(await verifyAssertion(earlier, { challenge, rp: RP, stored })).toMatchObject({ newCounter: 3 });
  });

  it("keeps the sign-count rule: above the stored count when either counts, any value when neither does", async () => {
    const { authenticator, stored } = await registered();
    const challenge = newChallenge();
    const at = (counter: number) => handmadeAssertion(authenticator, { id: stored.id, challenge, counter });
    expect(await refusal(verifyAssertion(await at(5), { challenge, rp: RP, stored: { ...stored, counter: 5 } }))).toBe("counter 5 not above 5");
    expect(await refusal(verifyAssertion(await at(0), { challenge, rp: RP, stored: { ...stored, counter: 5 } }))).toBe("counter 0 not above 5");
    expect(await verifyAssertion(await at(6), { challenge, rp: RP, stored: { ...stored, counter: 5 } })).toMatchObject({ newCounter: 6 });
    expect(await verifyAssertion(await at(0), { challenge, rp: RP, stored: { ...stored, counter: 0 } })).toMatchObject({ newCounter: 0 });
  });

  it("refuses another credential's id, a registration's type, no user presence, another user's handle, and bad encodings", async () => {
    const { authenticator, stored } = await registered();
    const challenge = newChallenge();
    const expected = { challenge, rp: RP, stored, userId: "user-1" };
    const check = async (assertion: Awaited<ReturnType<typeof handmadeAssertion>> | Record<string, unknown>) =>
      refusal(verifyAssertion(assertion as PasskeyResponseJSON, expected));
    expect(await check(await handmadeAssertion(authenticator, { id: "AAAA", challenge }))).toBe("assertion is for another credential");
    expect(await check(await handmadeAssertion(authenticator, { id: stored.id, challenge, clientData: { type: "webauthn.create" } }))).toBe(
      "clientData type webauthn.create",
    );
    expect(await check(await handmadeAssertion(authenticator, { id: stored.id, challenge, flags: 0x04 }))).toBe("user not present");
    const valid = await handmadeAssertion(authenticator, { id: stored.id, challenge });
    const withHandle = (userHandle: unknown) => ({ ...valid, response: { ...valid.response, userHandle } });
    expect(await check(withHandle(b64(text("user-2"))))).toBe("userHandle names another user");
    expect(await check(withHandle(7))).toBe("userHandle is not a string");
    expect(await check(withHandle(b64(text("user-1"))))).toBe("accepted");
    expect(await check({ ...valid, response: { ...valid.response, signature: "not base64!" } })).toBe("signature is not base64url");
    expect(await check({ ...valid, response: { ...valid.response, clientDataJSON: b64(text("{not json")) } })).toBe("clientDataJSON is not JSON");
    expect(await check({ ...valid, response: 5 })).toBe("response is not an object");
  });
});

describe("options", () => {
  it("asks for the algorithms we verify, no attestation, and excludes or allows the known credentials, as @simplewebauthn/server wrote them", () => {
    const challenge = newChallenge();
    expect(bytes(challenge)).toHaveLength(32);
    expect(newChallenge()).not.toBe(challenge);
    const known = [{ id: "Fo2E7RlqkZQfLad8_QtpsA", transports: ["internal"] }];
    expect(
      registrationOptions({
        challenge,
        rp: { id: "localhost", name: "Startline" },
        user: { id: "u-1", name: "s@example.com", displayName: "User s" },
        excludeCredentials: known,
      }),
    ).toEqual({
      challenge,
      rp: { name: "Startline", id: "localhost" },
      user: { id: b64(text("u-1")), name: "s@example.com", displayName: "User s" },
      pubKeyCredParams: [
        { alg: -8, type: "public-key" },
        { alg: -7, type: "public-key" },
        { alg: -257, type: "public-key" },
      ],
      timeout: 60000,
      attestation: "none",
      excludeCredentials: [{ id: "Fo2E7RlqkZQfLad8_QtpsA", transports: ["internal"], type: "public-key" }],
      authenticatorSelection: { residentKey: "preferred", userVerification: "preferred", requireResidentKey: false },
      extensions: { credProps: true },
      hints: [],
    });
    expect(JSON.parse(JSON.stringify(authenticationOptions({ challenge, rpId: "localhost", userVerification: "preferred" })))).toEqual({
      rpId: "localhost",
      challenge,
      timeout: 60000,
      userVerification: "preferred",
    });
    expect(authenticationOptions({ challenge, rpId: "localhost", allowCredentials: known, userVerification: "required" }).allowCredentials).toEqual([
      { id: "Fo2E7RlqkZQfLad8_QtpsA", transports: ["internal"], type: "public-key" },
    ]);
  });
});
