/** The data service's error replies (docs/api/data-service.md), one shape for every call. */
import type { Scope } from "../../core/access/scopes";
import { json } from "../http";
import type { BodyProblem } from "../request-limits";
import type { BearerCheck } from "./oauth";

export function unauthenticated(check: Extract<BearerCheck, { ok: false }>): Response {
  return json(check.error, { status: check.status, headers: { "WWW-Authenticate": check.challenge } });
}

/** 403 naming the missing scopes (spec section 6), in the body and the RFC 6750 challenge. */
export function insufficientScope(missing: readonly Scope[]): Response {
  const scope = missing.join(" ");
  return json(
    { error: "insufficient_scope", error_description: "The token does not carry the scope this call needs", scope },
    { status: 403, headers: { "WWW-Authenticate": `Bearer realm="data-api", error="insufficient_scope", scope="${scope}"` } },
  );
}

/** A body refused before parsing (size, type, depth): 400 keeps the invalid_request code; 413 and 415 name theirs. */
export function bodyRefused(problem: BodyProblem): Response {
  return json({ error: problem.status === 400 ? "invalid_request" : problem.code, message: problem.message }, { status: problem.status });
}

export function badRequest(message: string): Response {
  return json({ error: "invalid_request", message }, { status: 400 });
}

/** Unknown, missing and unreadable entities all read as not found, so ids cannot be probed. */
export function noSuch(classname: string): Response {
  return json({ error: "not_found", message: `No such ${classname}` }, { status: 404 });
}

export function forbidden(classname: string): Response {
  return json({ error: "forbidden", message: `Your roles do not allow this change to the ${classname}` }, { status: 403 });
}

export function methodNotAllowed(allow: string): Response {
  return json({ error: "method_not_allowed" }, { status: 405, headers: { Allow: allow } });
}

/** 429: this token (or client) made too many calls in the current window; Retry-After says when it ends. */
export function rateLimited(retryAfterSeconds: number): Response {
  return json(
    { error: "rate_limited", message: `Too many requests. Try again in ${retryAfterSeconds} seconds.` },
    { status: 429, headers: { "Retry-After": String(retryAfterSeconds) } },
  );
}
