/**
 * The access and refresh tokens: the token endpoint, the automatic refresh (spec sections 4 and 9) and
 * what happens when a refresh is refused (section 8: clear the tokens, authorise again).
 */
import { AuthError, AuthorizationError, FetchError, NO_BEARER_TOKEN, TOKEN_REFRESH_FAILED } from "./errors";
import { tokenStorageKeys as keys, type TokenStorage } from "./storage";

/** Refresh when this much or less remains on the access token (spec section 9: 3000 seconds). */
export const REFRESH_THRESHOLD_MS = 3000 * 1000;

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** The token endpoint's reply (RFC 6749 section 5.1). */
export interface TokenReply {
  access_token: string;
  token_type?: string;
  refresh_token?: string;
  /** Seconds from now. */
  expires_in?: number;
  /** Absolute expiry; see `expiryFrom` for its unit. */
  expires_at?: number;
  scope?: string;
}

export interface TokenManagerOptions {
  tokenUrl: string;
  clientId: string;
  /** Only confidential apps have one; a public app (a browser, a script) relies on PKCE. */
  clientSecret?: string;
  storage: TokenStorage;
  fetch: FetchLike;
  now: () => number;
}

// Below this an expires_at can only be seconds (1e11 s is the year 5138; 1e11 ms is 1973).
const EPOCH_SECONDS_LIMIT = 1e11;

/**
 * When a reply's access token expires, in epoch ms by the client's clock. expires_in comes first: it is
 * relative, so a client clock that is off does not matter. expires_at is accepted in ms or seconds, since
 * docs/api says times are ms but the token endpoint sends seconds.
 */
export function expiryFrom(reply: TokenReply, now: number): number | null {
  if (typeof reply.expires_in === "number" && Number.isFinite(reply.expires_in)) return now + reply.expires_in * 1000;
  if (typeof reply.expires_at === "number" && Number.isFinite(reply.expires_at)) {
    return reply.expires_at < EPOCH_SECONDS_LIMIT ? reply.expires_at * 1000 : reply.expires_at;
  }
  return null;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function field(body: unknown, name: string): string | null {
  if (typeof body !== "object" || body === null) return null;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === "string" ? value : null;
}

export class TokenManager {
  readonly #options: TokenManagerOptions;
  /** One refresh at a time: refresh tokens rotate, so a second concurrent refresh would be refused. */
  #refreshing: Promise<string> | null = null;

  constructor(options: TokenManagerOptions) {
    this.#options = options;
  }

  get storage(): TokenStorage {
    return this.#options.storage;
  }

  /** A bearer token with more than 3000 s left, refreshing first when needed; AuthError when there is none. */
  async accessToken(options: { forceRefresh?: boolean } = {}): Promise<string> {
    const { storage, now } = this.#options;
    const [token, expiresText, refreshToken] = await Promise.all([storage.get(keys.accessToken), storage.get(keys.expiresAt), storage.get(keys.refreshToken)]);
    if (!token) {
      if (refreshToken) return this.refresh();
      throw new AuthError(NO_BEARER_TOKEN);
    }
    const expiresAt = expiresText ? Number(expiresText) : null;
    const remaining = expiresAt === null || !Number.isFinite(expiresAt) ? Infinity : expiresAt - now();
    if (!options.forceRefresh && remaining > REFRESH_THRESHOLD_MS) return token;
    if (!refreshToken) {
      if (remaining > 0 && !options.forceRefresh) return token;
      throw new AuthError(NO_BEARER_TOKEN);
    }
    try {
      return await this.refresh();
    } catch (error) {
      // A network failure while the old token still has time left need not stop the call.
      if (!(error instanceof AuthError) && remaining > 0 && !options.forceRefresh) return token;
      throw error;
    }
  }

  /** Trades the refresh token for a new pair. A refusal clears every token and throws AuthError. */
  refresh(): Promise<string> {
    this.#refreshing ??= this.#refreshOnce().finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  async #refreshOnce(): Promise<string> {
    const { storage, clientId, clientSecret } = this.#options;
    const refreshToken = await storage.get(keys.refreshToken);
    if (!refreshToken) throw new AuthError(NO_BEARER_TOKEN);
    const form: Record<string, string> = { grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId };
    if (clientSecret) form.client_secret = clientSecret;
    const response = await this.#post(form);
    const body = await readJson(response);
    if (response.ok && field(body, "access_token")) return this.store(body as TokenReply);
    if (response.status >= 500) throw new FetchError(response.status, response.statusText, body);
    // Another tab or process sharing this storage may have rotated the pair first; then use its tokens.
    const [current, currentAccess] = await Promise.all([storage.get(keys.refreshToken), storage.get(keys.accessToken)]);
    if (current && current !== refreshToken && currentAccess) return currentAccess;
    await this.clear();
    throw new AuthError(TOKEN_REFRESH_FAILED, field(body, "error"));
  }

  /** grant_type=authorization_code. A refused code is an AuthorizationError carrying the server's error. */
  async exchangeCode(input: { code: string; redirectUri: string; codeVerifier: string }): Promise<string> {
    const { clientId, clientSecret } = this.#options;
    const form: Record<string, string> = {
      grant_type: "authorization_code",
      code: input.code,
      redirect_uri: input.redirectUri,
      client_id: clientId,
      code_verifier: input.codeVerifier,
    };
    if (clientSecret) form.client_secret = clientSecret;
    const response = await this.#post(form);
    const body = await readJson(response);
    if (response.ok && field(body, "access_token")) return this.store(body as TokenReply);
    if (response.status >= 500) throw new FetchError(response.status, response.statusText, body);
    throw new AuthorizationError(field(body, "error") ?? "invalid_grant", field(body, "error_description"));
  }

  /** Keeps a token reply; a reply without refresh_token keeps the one stored (RFC 6749 section 6). */
  async store(reply: TokenReply): Promise<string> {
    const { storage, now } = this.#options;
    await storage.set(keys.accessToken, reply.access_token);
    if (reply.refresh_token) await storage.set(keys.refreshToken, reply.refresh_token);
    const expiresAt = expiryFrom(reply, now());
    if (expiresAt === null) await storage.remove(keys.expiresAt);
    else await storage.set(keys.expiresAt, String(expiresAt));
    return reply.access_token;
  }

  async clear(): Promise<void> {
    const { storage } = this.#options;
    await Promise.all([storage.remove(keys.accessToken), storage.remove(keys.refreshToken), storage.remove(keys.expiresAt)]);
  }

  async hasTokens(): Promise<boolean> {
    const { storage } = this.#options;
    const [access, refresh] = await Promise.all([storage.get(keys.accessToken), storage.get(keys.refreshToken)]);
    return Boolean(access || refresh);
  }

  #post(form: Record<string, string>): Promise<Response> {
    return this.#options.fetch(this.#options.tokenUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: new URLSearchParams(form).toString(),
    });
  }
}
