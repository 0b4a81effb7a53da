/**
 * The browser half of OAuth 2 with PKCE (spec section 7, "Data-service authorisation"): build the
 * authorize URL, then check the redirect and trade its code for tokens.
 */
import { AuthorizationError } from "./errors";
import { createPkcePair, type SdkCrypto } from "./pkce";
import { tokenStorageKeys as keys } from "./storage";
import type { TokenManager } from "./tokens";

export interface AuthorizationConfig {
  baseUrl: string;
  clientId: string;
  redirectUri: string;
  /** Space-separated scope text, for example `registrations races:<id>`. */
  scope: string;
  crypto: SdkCrypto;
  tokens: TokenManager;
}

/** Stores a new verifier and state, and returns the URL to send the user's browser to. */
export async function beginAuthorization(config: AuthorizationConfig): Promise<string> {
  const { verifier, state, challenge } = await createPkcePair(config.crypto);
  const { storage } = config.tokens;
  await storage.set(keys.codeVerifier, verifier);
  await storage.set(keys.state, state);
  const query = new URLSearchParams({
    response_type: "code",
    client_id: config.clientId,
    redirect_uri: config.redirectUri,
    scope: config.scope,
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
  });
  return `${config.baseUrl}/data-api/authorize?${query}`;
}

/**
 * Checks the redirect the server sent the browser to, then exchanges its code. Returns the access token.
 * The stored state must equal the redirect's, or a page that started no authorisation could be made to
 * accept someone else's code (RFC 6749 section 10.12).
 */
export async function completeAuthorization(config: AuthorizationConfig, redirectedUrl: string | URL): Promise<string> {
  const params = new URL(redirectedUrl, config.redirectUri).searchParams;
  const error = params.get("error");
  if (error) throw new AuthorizationError(error, params.get("error_description"));
  const code = params.get("code");
  const state = params.get("state");
  if (!code || !state) throw new AuthorizationError("invalid_redirect", "The redirect has no code or no state");
  const { storage } = config.tokens;
  const [storedState, verifier] = await Promise.all([storage.get(keys.state), storage.get(keys.codeVerifier)]);
  if (!storedState || !verifier) throw new AuthorizationError("no_pending_authorization", "No authorisation was started here");
  if (storedState !== state) throw new AuthorizationError("state_mismatch", "The redirect's state is not the one this client sent");
  try {
    return await config.tokens.exchangeCode({ code, redirectUri: config.redirectUri, codeVerifier: verifier });
  } finally {
    // A code is single use, so after one exchange, good or bad, the verifier is of no further use.
    await Promise.all([storage.remove(keys.codeVerifier), storage.remove(keys.state)]);
  }
}
