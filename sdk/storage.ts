/**
 * Where the SDK keeps tokens and the pending PKCE verifier and state. Methods may be sync or async, so a
 * Node script can keep them in a file and a browser in localStorage. Every key the SDK uses is in
 * `tokenStorageKeys`.
 */

type MaybePromise<T> = T | Promise<T>;

export interface TokenStorage {
  get(key: string): MaybePromise<string | null | undefined>;
  set(key: string, value: string): MaybePromise<void>;
  remove(key: string): MaybePromise<void>;
}

export const tokenStorageKeys = {
  /** The bearer token for `/data-api/*` and the socket's api-auth. */
  accessToken: "access_token",
  /** Rotated on every refresh: the old one stops working at once. */
  refreshToken: "refresh_token",
  /** When the access token expires, epoch milliseconds by the client's clock. */
  expiresAt: "expires_at",
  /** Between beginAuthorization and completeAuthorization only. */
  codeVerifier: "pkce_verifier",
  state: "pkce_state",
} as const;

export class MemoryTokenStorage implements TokenStorage {
  readonly #values = new Map<string, string>();

  get(key: string): string | null {
    return this.#values.get(key) ?? null;
  }

  set(key: string, value: string): void {
    this.#values.set(key, value);
  }

  remove(key: string): void {
    this.#values.delete(key);
  }
}

/** The part of the Web Storage API used, so sessionStorage or a test double fits too. */
export type WebStorageLike = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** localStorage in a browser; keys are prefixed by client id so two apps on one origin keep apart. */
export class LocalStorageTokenStorage implements TokenStorage {
  readonly #prefix: string;
  readonly #storage: WebStorageLike;

  constructor(clientId: string, storage: WebStorageLike = globalThis.localStorage) {
    if (!storage) throw new Error("localStorage is not available here; pass a TokenStorage such as MemoryTokenStorage");
    this.#prefix = `z4-data-api:${clientId}:`;
    this.#storage = storage;
  }

  get(key: string): string | null {
    return this.#storage.getItem(this.#prefix + key);
  }

  set(key: string, value: string): void {
    this.#storage.setItem(this.#prefix + key, value);
  }

  remove(key: string): void {
    this.#storage.removeItem(this.#prefix + key);
  }
}

/** localStorage when the runtime has one (browsers), else memory (Node, workers). */
export function defaultTokenStorage(clientId: string): TokenStorage {
  let local: WebStorageLike | undefined;
  try {
    local = (globalThis as { localStorage?: WebStorageLike }).localStorage;
  } catch {
    // Some runtimes throw on access (a sandboxed iframe, Node's localStorage without a file).
  }
  return local ? new LocalStorageTokenStorage(clientId, local) : new MemoryTokenStorage();
}
