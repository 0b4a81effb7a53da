// The fake's HTTP API layer, as Stripe answers: the secret key, the Stripe-Account header, routing to the handlers,
// idempotency keys (replayed, refused with other parameters, 409 while in flight) and a log of every request.
import { FakeStripeError, invalidRequest } from "./errors";
import { canonicalForm, decodeForm, formToObject, type FormObject } from "./form-decode";
import type { Handler, Route } from "./handler";
import { newId } from "./objects";
import { Params } from "./params";
import type { RecordedEvent } from "./webhooks";

export interface RequestLogEntry {
  method: string;
  path: string;
  idempotencyKey: string | null;
  account: string | null;
  requestId: string;
  status: number;
  /** Answered from the idempotency store, without doing anything. */
  replayed: boolean;
  /** The decoded body (POST) or query (GET). */
  params: FormObject;
}

interface StoredResponse {
  method: string;
  path: string;
  canonical: string;
  status: number;
  body: string;
  requestId: string;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  // Stripe pretty-prints its JSON responses.
  return new Response(JSON.stringify(body, null, 2), { status, headers: { "Content-Type": "application/json", ...headers } });
}

function redact(key: string): string {
  return key.length <= 12 ? key : `${key.slice(0, 8)}${"*".repeat(key.length - 12)}${key.slice(-4)}`;
}

/** The secret key from `Bearer sk_…` or curl's `-u sk_…:` (Basic), as Stripe accepts both. */
function apiKeyOf(request: Request): string | null {
  const header = request.headers.get("Authorization") ?? "";
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  if (bearer?.[1]) return bearer[1];
  const basic = /^Basic\s+(\S+)$/i.exec(header);
  if (basic?.[1]) {
    try {
      return atob(basic[1]).split(":")[0] || null;
    } catch {
      return null;
    }
  }
  return null;
}

export interface ApiOptions {
  apiVersion: string;
  routes: readonly Route[];
  /** Every request is appended here as it arrives. */
  requestLog: RequestLogEntry[];
  /** Posts the webhook events a request caused. */
  dispatch: (events: RecordedEvent[]) => Promise<void>;
}

export function createApi(options: ApiOptions): (request: Request, url: URL) => Promise<Response> {
  const { apiVersion, routes, requestLog } = options;
  const idempotency = new Map<string, StoredResponse>();
  const inFlight = new Set<string>();

  async function api(request: Request, url: URL): Promise<Response> {
    const requestId = newId("req_", 14);
    const method = request.method.toUpperCase();
    const account = request.headers.get("Stripe-Account");
    const idempotencyKey = method === "POST" ? request.headers.get("Idempotency-Key") : null;
    const baseHeaders: Record<string, string> = { "Request-Id": requestId, "Stripe-Version": request.headers.get("Stripe-Version") ?? apiVersion };
    if (account) baseHeaders["Stripe-Account"] = account;
    if (idempotencyKey) baseHeaders["Idempotency-Key"] = idempotencyKey;
    const body = method === "GET" || method === "HEAD" ? "" : await request.text();
    const search = method === "GET" || method === "HEAD" ? url.searchParams : new URLSearchParams(body);
    const entry: RequestLogEntry = { method, path: url.pathname, idempotencyKey, account, requestId, status: 0, replayed: false, params: {} };
    requestLog.push(entry);

    const answer = (status: number, payload: unknown, extra: Record<string, string> = {}): Response => {
      entry.status = status;
      return json(status, payload, { ...baseHeaders, ...extra });
    };

    const key = apiKeyOf(request);
    if (key === null) {
      return answer(
        401,
        new FakeStripeError(401, {
          type: "invalid_request_error",
          message:
            "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
        }).toJSON(),
        { "WWW-Authenticate": 'Basic realm="Stripe"' },
      );
    }
    if (!/^(sk|rk)_test_\w+$/.test(key)) {
      return answer(
        401,
        new FakeStripeError(401, { type: "invalid_request_error", code: "api_key_expired", message: `Invalid API Key provided: ${redact(key)}` }).toJSON(),
        {
          "WWW-Authenticate": 'Basic realm="Stripe"',
        },
      );
    }
    if (account !== null && !/^acct_\w+$/.test(account)) {
      const message = `The provided key '${redact(key)}' does not have access to account '${account}' (or that account does not exist). Application access may have been revoked.`;
      return answer(403, new FakeStripeError(403, { type: "invalid_request_error", code: "account_invalid", message }).toJSON());
    }

    let route: { handler: Handler; id: string } | undefined;
    for (const candidate of routes) {
      const match = candidate.method === method ? candidate.pattern.exec(url.pathname) : null;
      if (match) route = { handler: candidate.handler, id: decodeURIComponent(match[1] ?? "") };
    }
    if (!route) {
      const message = `Unrecognized request URL (${method}: ${url.pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`;
      return answer(404, new FakeStripeError(404, { type: "invalid_request_error", message }).toJSON());
    }

    // Idempotency is per account: the same key on another account is a different request.
    const storeKey = idempotencyKey ? `${account ?? ""}\n${idempotencyKey}` : null;
    const canonical = canonicalForm(search);
    if (storeKey && idempotencyKey) {
      if (idempotencyKey.length > 255) return answer(400, invalidRequest("Idempotency-Key must be at most 255 characters long.", "Idempotency-Key").toJSON());
      const stored = idempotency.get(storeKey);
      if (stored) {
        entry.replayed = true;
        entry.params = safeParams(search);
        if (stored.method !== method || stored.path !== url.pathname) {
          const message = `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${stored.method} ${stored.path}' vs '${method} ${url.pathname}'). Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`;
          return answer(400, new FakeStripeError(400, { type: "idempotency_error", message }).toJSON());
        }
        if (stored.canonical !== canonical) {
          const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`;
          return answer(400, new FakeStripeError(400, { type: "idempotency_error", message }).toJSON());
        }
        entry.status = stored.status;
        return new Response(stored.body, {
          status: stored.status,
          headers: { "Content-Type": "application/json", ...baseHeaders, "Idempotent-Replayed": "true", "Original-Request": stored.requestId },
        });
      }
      if (inFlight.has(storeKey)) {
        const message = `There is currently another in-progress request using this Stripe API Idempotency Key (that probably means you submitted twice, and the other request is still going through): ${idempotencyKey}. Please try again later.`;
        return answer(409, new FakeStripeError(409, { type: "invalid_request_error", code: "idempotency_key_in_use", message }).toJSON());
      }
      inFlight.add(storeKey);
    }

    let status = 200;
    let payload: unknown;
    let events: RecordedEvent[] = [];
    let store = true;
    try {
      const params = Params.root(decodeForm(search));
      entry.params = safeParams(search);
      const result = await route.handler({ requestId, account, idempotencyKey }, params, route.id);
      status = result.status ?? 200;
      payload = result.body;
      events = result.events;
    } catch (error) {
      if (error instanceof FakeStripeError) {
        status = error.status;
        payload = error.toJSON();
        store = !error.isValidation;
      } else {
        console.error("Stripe fake: handler failed", error);
        status = 500;
        payload = new FakeStripeError(500, {
          type: "api_error",
          message: `Stripe fake failed: ${error instanceof Error ? error.message : String(error)}`,
        }).toJSON();
      }
    }
    const response = answer(status, payload, status >= 500 ? { "Stripe-Should-Retry": "false" } : {});
    if (storeKey) {
      // Store before leaving in-flight, with no await between: a retry must find one or the other.
      const stored = store ? await response.clone().text() : null;
      if (stored !== null) idempotency.set(storeKey, { method, path: url.pathname, canonical, status, body: stored, requestId });
      inFlight.delete(storeKey);
    }
    // Webhooks for the request go out before it answers, so a test sees their effects once the SDK call returns (pause() to change that).
    await options.dispatch(events);
    return response;
  }

  function safeParams(search: URLSearchParams): FormObject {
    try {
      return formToObject(decodeForm(search));
    } catch {
      return {};
    }
  }

  return api;
}
