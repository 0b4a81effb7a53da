import { encodeBase64urlNoPadding } from "@oslojs/encoding";

/**
 * A software WebAuthn authenticator ("none" attestation; ES256 unless told RS256 or EdDSA) for driving the
 * passkey endpoints in tests and the verifier's unit tests (core/auth/passkey).
 */

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor>;

function head(major: number, length: number): number[] {
  if (length < 24) return [(major << 5) | length];
  if (length < 256) return [(major << 5) | 24, length];
  return [(major << 5) | 25, length >> 8, length & 0xff];
}

function cbor(value: Cbor): number[] {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const bytes = new TextEncoder().encode(value);
    return [...head(3, bytes.length), ...bytes];
  }
  if (value instanceof Uint8Array) return [...head(2, value.length), ...value];
  if (Array.isArray(value)) return [...head(4, value.length), ...value.flatMap(cbor)];
  return [...head(5, value.size), ...[...value.entries()].flatMap(([k, v]) => [...cbor(k), ...cbor(v)])];
}

const sha256 = async (data: Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>));
const b64 = (bytes: Uint8Array) => encodeBase64urlNoPadding(bytes);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
};
const u32 = (n: number) => new Uint8Array([n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);

/** WebCrypto signs ECDSA as r||s; WebAuthn wants ASN.1 DER. */
function derSignature(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    let trimmed = bytes.slice(i);
    if (trimmed[0]! & 0x80) trimmed = concat(new Uint8Array([0]), trimmed);
    return concat(new Uint8Array([0x02, trimmed.length]), trimmed);
  };
  const body = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)));
  return concat(new Uint8Array([0x30, body.length]), body);
}

export type SoftAlgorithm = "ES256" | "RS256" | "EdDSA";

const keyParams: Record<SoftAlgorithm, RsaHashedKeyGenParams | EcKeyGenParams | Algorithm> = {
  ES256: { name: "ECDSA", namedCurve: "P-256" },
  RS256: { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
  EdDSA: { name: "Ed25519" },
};
const signParams: Record<SoftAlgorithm, AlgorithmIdentifier | EcdsaParams> = {
  ES256: { name: "ECDSA", hash: "SHA-256" },
  RS256: { name: "RSASSA-PKCS1-v1_5" },
  EdDSA: { name: "Ed25519" },
};
const fromB64 = (text: string) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

export class SoftAuthenticator {
  private keys!: CryptoKeyPair;
  readonly credentialId = crypto.getRandomValues(new Uint8Array(16));
  private counter = 0;

  private constructor(readonly algorithm: SoftAlgorithm) {}

  static async create(algorithm: SoftAlgorithm = "ES256"): Promise<SoftAuthenticator> {
    const authenticator = new SoftAuthenticator(algorithm);
    authenticator.keys = (await crypto.subtle.generateKey(keyParams[algorithm], true, ["sign", "verify"])) as CryptoKeyPair;
    return authenticator;
  }

  get id(): string {
    return b64(this.credentialId);
  }

  /** The public key as a COSE_Key map (RFC 9053), CBOR-encoded as authenticators send it. */
  async coseKey(): Promise<Uint8Array> {
    const jwk = (await crypto.subtle.exportKey("jwk", this.keys.publicKey)) as JsonWebKey;
    const entries: [Cbor, Cbor][] =
      this.algorithm === "ES256"
        ? [
            [1, 2],
            [3, -7],
            [-1, 1],
            [-2, fromB64(jwk.x!)],
            [-3, fromB64(jwk.y!)],
          ]
        : this.algorithm === "RS256"
          ? [
              [1, 3],
              [3, -257],
              [-1, fromB64(jwk.n!)],
              [-2, fromB64(jwk.e!)],
            ]
          : [
              [1, 1],
              [3, -8],
              [-1, 6],
              [-2, fromB64(jwk.x!)],
            ];
    return new Uint8Array(cbor(new Map(entries)));
  }

  /** Signs as the authenticator would: ES256 in DER, RS256 and EdDSA as WebCrypto gives them. */
  async sign(message: Uint8Array): Promise<Uint8Array> {
    const raw = new Uint8Array(await crypto.subtle.sign(signParams[this.algorithm], this.keys.privateKey, message as Uint8Array<ArrayBuffer>));
    return this.algorithm === "ES256" ? derSignature(raw) : raw;
  }

  /** The browser's answer to navigator.credentials.create for these options, as the JSON the server takes. */
  async register(options: { challenge: string; rp: { id?: string } }, origin: string) {
    const coseKey = await this.coseKey();
    const authData = concat(
      await sha256(new TextEncoder().encode(options.rp.id!)),
      new Uint8Array([0x45]), // user present, user verified, attested credential data
      u32(this.counter),
      new Uint8Array(16),
      new Uint8Array([0, this.credentialId.length]),
      this.credentialId,
      coseKey,
    );
    const clientDataJSON = new TextEncoder().encode(JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin, crossOrigin: false }));
    const attestationObject = new Uint8Array(
      cbor(
        new Map<Cbor, Cbor>([
          ["fmt", "none"],
          ["attStmt", new Map()],
          ["authData", authData],
        ]),
      ),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: { clientDataJSON: b64(clientDataJSON), attestationObject: b64(attestationObject), transports: ["internal"] },
      clientExtensionResults: {},
    };
  }

  /**
   * The answer to navigator.credentials.get, signed for `rpId` (a wrong one makes a phishing site's answer).
   * `userVerified: false` leaves the UV flag off, as a security key without a PIN answers.
   */
  async authenticate(options: { challenge: string }, origin: string, rpId: string, counterStep = 1, userVerified = true) {
    this.counter += counterStep;
    const flags = userVerified ? 0x05 : 0x01; // user present (0x01), user verified (0x04)
    const authData = concat(await sha256(new TextEncoder().encode(rpId)), new Uint8Array([flags]), u32(this.counter));
    const clientDataJSON = new TextEncoder().encode(JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin, crossOrigin: false }));
    const signature = await this.sign(concat(authData, await sha256(clientDataJSON)));
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: { clientDataJSON: b64(clientDataJSON), authenticatorData: b64(authData), signature: b64(signature) },
      clientExtensionResults: {},
    };
  }
}
