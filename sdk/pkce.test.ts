import { describe, expect, it } from "vitest";
import { base64UrlEncode, codeChallengeS256, createPkcePair, type SdkCrypto } from "./pkce";

const base64url43 = /^[A-Za-z0-9_-]{43}$/;

/** The expected challenge, computed here with web crypto and Node's own base64url encoder. */
async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return Buffer.from(digest).toString("base64url");
}

describe("PKCE", () => {
  it("makes verifier and state of 43 base64url characters, each from 32 random bytes", async () => {
    const requested: number[] = [];
    const drawn: Uint8Array[] = [];
    const recording: SdkCrypto = {
      getRandomValues(array) {
        requested.push(array.length);
        crypto.getRandomValues(array);
        drawn.push(array.slice());
        return array;
      },
      subtle: crypto.subtle,
    };
    const pair = await createPkcePair(recording);
    expect(requested).toEqual([32, 32]);
    expect(pair.verifier).toMatch(base64url43);
    expect(pair.state).toMatch(base64url43);
    expect(pair.verifier).toBe(Buffer.from(drawn[0] as Uint8Array).toString("base64url"));
    expect(pair.state).toBe(Buffer.from(drawn[1] as Uint8Array).toString("base64url"));
    expect(Buffer.from(pair.verifier, "base64url")).toHaveLength(32);
    expect(pair.state).not.toBe(pair.verifier);
  });

  it("derives the challenge as base64url(SHA-256(verifier))", async () => {
    const pair = await createPkcePair(crypto);
    expect(pair.challenge).toBe(await s256(pair.verifier));
    expect(pair.challenge).toMatch(base64url43);
  });

  it("matches the RFC 7636 appendix B example", async () => {
    const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    expect(await codeChallengeS256(crypto, verifier)).toBe(await s256(verifier));
    expect(await codeChallengeS256(crypto, verifier)).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  });

  it("encodes base64url without padding for every length", () => {
    for (let length = 0; length <= 40; length++) {
      const bytes = crypto.getRandomValues(new Uint8Array(length));
      bytes[0] = 0xfb; // makes '+' or '/' likely in plain base64
      const encoded = base64UrlEncode(bytes.subarray(0, length));
      expect(encoded).toBe(Buffer.from(bytes.subarray(0, length)).toString("base64url"));
      expect(encoded).not.toMatch(/[+/=]/);
    }
  });
});
