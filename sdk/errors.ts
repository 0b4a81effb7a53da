/**
 * Every error the SDK throws or reports. All extend DataServiceError, so one `instanceof` catches them; the
 * messages that spec section 8 names are written here and nowhere else.
 */

export const NO_BEARER_TOKEN = "No bearer token set. Please authenticate first.";
export const TOKEN_REFRESH_FAILED = "Token refresh failed. Please authenticate again.";
export const SOCKET_CONNECT_TIMEOUT = "socket connect failed timeout";
export const CREATE_ATTEMPT_FAILED = "Failed to create sign-in attempt";
export const VERIFY_ATTEMPT_FAILED = "Failed to verify sign-in attempt";

export class DataServiceError extends Error {
  // Named literally, not from the constructor, so minified bundles keep readable names.
  override name = "DataServiceError";
}

/** No usable token: none stored and no refresh token, or the refresh was refused (tokens are then cleared). */
export class AuthError extends DataServiceError {
  override name = "AuthError";
  /** The token endpoint's `error` (for example `invalid_grant`) when a refresh was refused. */
  readonly error: string | null;
  constructor(message: string, error: string | null = null) {
    super(message);
    this.error = error;
  }
}

/** The browser flow failed: an error redirect, a redirect without code or state, no or another stored state, or a refused code. */
export class AuthorizationError extends DataServiceError {
  override name = "AuthorizationError";
  /** The OAuth `error` of the redirect or token reply, or `invalid_redirect`, `no_pending_authorization`, `state_mismatch`. */
  readonly error: string;
  readonly description: string | null;
  constructor(error: string, description: string | null = null) {
    super(`Authorization error: ${error}${description ? ` (${description})` : ""}`);
    this.error = error;
    this.description = description;
  }
}

/** Any other non-2xx reply. The message is exactly `SDK Fetch Error: ${status} ${statusText}`. */
export class FetchError extends DataServiceError {
  override name = "FetchError";
  readonly status: number;
  readonly statusText: string;
  /** The reply body: parsed JSON when it was JSON, else its text (a 409 carries `fields` and `current`). */
  readonly body: unknown;
  constructor(status: number, statusText: string, body: unknown) {
    super(`SDK Fetch Error: ${status} ${statusText}`);
    this.status = status;
    this.statusText = statusText;
    this.body = body;
  }
}

/** A 403 `insufficient_scope`: the token lacks the scopes in `missing` (authorise again asking for them). */
export class ScopeError extends DataServiceError {
  override name = "ScopeError";
  readonly status = 403;
  readonly missing: string[];
  readonly body: unknown;
  constructor(missing: string[], body: unknown) {
    super(`Insufficient scope; missing: ${missing.length > 0 ? missing.join(", ") : "(not named)"}`);
    this.missing = missing;
    this.body = body;
  }
}

/** A list was asked for in `text/x-z4-api-list` and something else came back. */
export class ListFormatError extends DataServiceError {
  override name = "ListFormatError";
  readonly contentType: string | null;
  constructor(contentType: string | null) {
    super(`Expected a text/x-z4-api-list reply but received ${contentType ? `'${contentType}'` : "no content type"}`);
    this.contentType = contentType;
  }
}

/** Reported by DataSocket to its error listeners: a connect timeout, an `error` frame, or a frame that does not parse. */
export class SocketError extends DataServiceError {
  override name = "SocketError";
}

/** The data-service sign-in calls failed; `detail` is the server's `error` (or `message`) when it sent one. */
export class SignInError extends DataServiceError {
  override name = "SignInError";
  readonly status: number | null;
  readonly detail: string | null;
  constructor(message: string, status: number | null, detail: string | null) {
    super(message);
    this.status = status;
    this.detail = detail;
  }
}
