/**
 * DataClient: one app's access to the data service (`/data-api/*`, docs/api/data-service.md) on one host.
 * Every dependency on the runtime (fetch, crypto, storage, clock) comes in through options, defaulting to
 * the web globals that browsers and Node 20 both have.
 */
import { beginAuthorization, completeAuthorization, type AuthorizationConfig } from "./authorization";
import { DataServiceError, FetchError, ScopeError } from "./errors";
import { discardBody, encodeFilters, readApiList, type ListOptions, type ListResult } from "./list";
import type { SdkCrypto } from "./pkce";
import {
  createSignInAttempt,
  verifySignInAttempt,
  type CreateSignInAttemptInput,
  type SignInAttemptReply,
  type SignInVerification,
  type VerifyReply,
} from "./sign-in";
import { DataSocket, type DataSocketOptions } from "./socket";
import { defaultTokenStorage, tokenStorageKeys, type TokenStorage } from "./storage";
import { TokenManager, type FetchLike } from "./tokens";

export interface DataClientOptions {
  /** The club's or platform's origin, for example `https://club.example`; a trailing slash is ignored. */
  baseUrl: string;
  clientId: string;
  /** Must equal one of the app's registered redirect URIs exactly. */
  redirectUri: string;
  /** The scopes to ask for: space-separated text or a list, for example `["registrations"]`. */
  scope?: string | readonly string[];
  /** Confidential apps only. Never ship one to a browser. */
  clientSecret?: string;
  /** Default: localStorage (prefixed by client id) where there is one, else memory. */
  storage?: TokenStorage;
  fetch?: FetchLike;
  crypto?: SdkCrypto;
  /** Epoch milliseconds; default Date.now. */
  now?: () => number;
}

export type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = Record<string, QueryValue>;

export interface RequestOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** Null and undefined values are left out. */
  query?: QueryParams;
  /** Default `application/json`. */
  accept?: string;
  headers?: Record<string, string>;
}

/** A nested entity's parent, as query parameters named after the parent field: `{ registration: id }`. */
export type ParentParams = QueryParams;

export interface EntityTree {
  classname: string;
  uuid: string;
  field_mtimes?: Record<string, number>;
  [field: string]: unknown;
}

export interface UpdateReply {
  classname: string;
  uuid: string;
  changed: string[];
  field_mtimes: Record<string, number>;
}

export interface UpdateOptions {
  /** The field times the client last read; a field changed since makes the write a 409 (FetchError, status 409). */
  fieldMtimes?: Record<string, number>;
  parent?: ParentParams;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function bodyField(body: unknown, name: string): unknown {
  return typeof body === "object" && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

/** `error="…"` (quoted or not) of an RFC 6750 challenge. */
function challengeParam(header: string | null, name: string): string | null {
  const match = header ? new RegExp(`${name}="([^"]*)"|${name}=([^,\\s]+)`).exec(header) : null;
  return match ? (match[1] ?? match[2] ?? null) : null;
}

function missingScopes(body: unknown, challenge: string | null): string[] {
  const scope = bodyField(body, "scope");
  const text = typeof scope === "string" ? scope : (challengeParam(challenge, "scope") ?? "");
  return text.split(/\s+/).filter(Boolean);
}

function entityPath(className: string, uuid?: string): string {
  const base = `/data-api/${encodeURIComponent(className)}/`;
  return uuid === undefined ? base : `${base}${encodeURIComponent(uuid)}`;
}

export class DataClient {
  readonly baseUrl: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly scope: string;
  readonly tokens: TokenManager;
  readonly #fetch: FetchLike;
  readonly #crypto: SdkCrypto;

  constructor(options: DataClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.clientId = options.clientId;
    this.redirectUri = options.redirectUri;
    this.scope = typeof options.scope === "string" ? options.scope : (options.scope ?? []).join(" ");
    // Called through globalThis each time: a bare `fetch` reference throws "Illegal invocation" in browsers.
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#crypto = options.crypto ?? globalThis.crypto;
    this.tokens = new TokenManager({
      tokenUrl: `${this.baseUrl}/data-api/token`,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      storage: options.storage ?? defaultTokenStorage(options.clientId),
      fetch: this.#fetch,
      now: options.now ?? Date.now,
    });
  }

  // ---- Authorisation --------------------------------------------------------------------------------

  /** Stores a new PKCE verifier and state and returns the authorize URL to open in the user's browser. */
  beginAuthorization(): Promise<string> {
    return beginAuthorization(this.#authorizationConfig());
  }

  /** Checks the redirect (full URL, or path and query relative to redirectUri) and stores the tokens it earns. */
  async completeAuthorization(redirectedUrl: string | URL): Promise<void> {
    await completeAuthorization(this.#authorizationConfig(), redirectedUrl);
  }

  /** Whether an access or refresh token is stored (it may still be refused). */
  isAuthenticated(): Promise<boolean> {
    return this.tokens.hasTokens();
  }

  /** A bearer token with more than 3000 s left, refreshed first when needed. */
  accessToken(options?: { forceRefresh?: boolean }): Promise<string> {
    return this.tokens.accessToken(options);
  }

  /** Revokes the token pair at the server (RFC 7009, always 200) and forgets it here. */
  async signOut(): Promise<void> {
    const { storage } = this.tokens;
    const token = (await storage.get(tokenStorageKeys.refreshToken)) || (await storage.get(tokenStorageKeys.accessToken));
    try {
      if (token) {
        await this.#fetch(`${this.baseUrl}/data-api/revoke`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ token, client_id: this.clientId }).toString(),
        });
      }
    } finally {
      await this.tokens.clear();
    }
  }

  #authorizationConfig(): AuthorizationConfig {
    return { baseUrl: this.baseUrl, clientId: this.clientId, redirectUri: this.redirectUri, scope: this.scope, crypto: this.#crypto, tokens: this.tokens };
  }

  // ---- Requests -------------------------------------------------------------------------------------

  /**
   * One authenticated call; resolves with the 2xx Response. A 401 invalid_token refreshes and retries
   * once; 403 insufficient_scope is a ScopeError; any other non-2xx a FetchError.
   */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const url = new URL(path, `${this.baseUrl}/`);
    // The bearer token goes to this client's host only.
    if (url.origin !== new URL(this.baseUrl).origin) throw new DataServiceError(`Refusing to send the token to ${url.origin}`);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== null && value !== undefined) url.searchParams.set(name, String(value));
    }
    const send = (token: string) => {
      const headers: Record<string, string> = { Accept: options.accept ?? "application/json", ...options.headers, Authorization: `Bearer ${token}` };
      const init: RequestInit = { method, headers };
      if (options.body !== undefined) {
        headers["Content-Type"] = "application/json";
        init.body = JSON.stringify(options.body);
      }
      return this.#fetch(url.toString(), init);
    };
    let response = await send(await this.tokens.accessToken());
    if (response.status === 401 && (await this.#isInvalidToken(response))) {
      discardBody(response);
      // The token was revoked or expired early; refresh clears the tokens and throws AuthError if refused.
      response = await send(await this.tokens.refresh());
    }
    if (response.ok) return response;
    const body = await readBody(response);
    const challenge = response.headers.get("WWW-Authenticate");
    if (response.status === 403 && (bodyField(body, "error") === "insufficient_scope" || challengeParam(challenge, "error") === "insufficient_scope")) {
      throw new ScopeError(missingScopes(body, challenge), body);
    }
    throw new FetchError(response.status, response.statusText, body);
  }

  async #isInvalidToken(response: Response): Promise<boolean> {
    if (challengeParam(response.headers.get("WWW-Authenticate"), "error") === "invalid_token") return true;
    // The body says the same (docs/api/data-service.md); read a clone so the caller can still read the original.
    return bodyField(await readBody(response.clone()), "error") === "invalid_token";
  }

  async #json<T>(method: string, path: string, options?: RequestOptions): Promise<T> {
    return (await readBody(await this.request(method, path, options))) as T;
  }

  // ---- Entities -------------------------------------------------------------------------------------

  /** A page of the class in the list format: typed columns, parsed rows, the total, and the CSV as sent. */
  async list(className: string, options: ListOptions = {}): Promise<ListResult> {
    const query: QueryParams = { limit: options.limit, offset: options.offset, sort: options.sort };
    if (options.filters !== undefined) query.filters = encodeFilters(options.filters);
    return readApiList(await this.request("GET", entityPath(className), { query, accept: "text/x-z4-api-list" }));
  }

  /** The entity's tree; `parent` as query parameters, e.g. `{ registration: id }` for a FormElement. */
  get<T extends EntityTree = EntityTree>(className: string, uuid: string, parent?: ParentParams): Promise<T> {
    return this.#json<T>("GET", entityPath(className, uuid), { query: parent });
  }

  /** Creates an entity (its parent field included); returns the new uuid from the Location header. */
  async create(className: string, item: Record<string, unknown>): Promise<string> {
    const response = await this.request("PUT", entityPath(className), { body: item });
    const location = response.headers.get("Location");
    const fromLocation = location ? decodeURIComponent(new URL(location, `${this.baseUrl}/`).pathname.replace(/\/+$/, "").split("/").pop() ?? "") : "";
    const body = await readBody(response);
    const uuid = fromLocation || bodyField(body, "uuid");
    if (typeof uuid !== "string" || uuid === "") throw new DataServiceError(`${className} was created but the reply names no uuid`);
    return uuid;
  }

  /** Changes only the fields given; with fieldMtimes, a field changed since is a 409 and nothing is written. */
  update(className: string, uuid: string, changedFields: Record<string, unknown>, options: UpdateOptions = {}): Promise<UpdateReply> {
    const body = options.fieldMtimes ? { ...changedFields, field_mtimes: options.fieldMtimes } : changedFields;
    return this.#json<UpdateReply>("POST", `${entityPath(className, uuid)}/`, { body, query: options.parent });
  }

  async remove(className: string, uuid: string, parent?: ParentParams): Promise<void> {
    const response = await this.request("DELETE", `${entityPath(className, uuid)}/`, { query: parent });
    discardBody(response);
  }

  /** Subscribes the socket connection `conn` (from its hello) to one entity; DataSocket calls this for you. */
  subscribe(className: string, uuid: string, conn: string): Promise<{ channel: string }> {
    return this.#json<{ channel: string }>("POST", `${entityPath(className, uuid)}/subscribe`, { query: { conn } });
  }

  /** A live socket for this client; call `connect()` on it. */
  socket(options: Omit<DataSocketOptions, "client"> = {}): DataSocket {
    return new DataSocket({ ...options, client: this });
  }

  // ---- Sign-in (spec section 7, data-service client variant) ---------------------------------------

  createSignInAttempt(input: CreateSignInAttemptInput): Promise<SignInAttemptReply> {
    return createSignInAttempt({ baseUrl: this.baseUrl, fetch: this.#fetch }, input);
  }

  verifySignInAttempt(attemptId: string, verify: SignInVerification): Promise<[VerifyReply, Record<string, unknown>]> {
    return verifySignInAttempt({ baseUrl: this.baseUrl, fetch: this.#fetch }, attemptId, verify);
  }
}
