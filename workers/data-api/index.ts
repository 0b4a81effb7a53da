import * as z from "zod";
import { formatScopeText } from "../../core/access/scope-text";
import { scopeForArea } from "../../core/access/scopes";
import { childClassesOf, entityClasses, findEntityClass } from "../../schema/entities/classes";
import { clientKeyOf } from "../auth/failures";
import { loadRoles } from "../auth/roles";
import { dataApiRateLimited } from "./rate-limit";
import { apiNotFound, json } from "../http";
import type { RequestContext } from "../request-context";
import { DATA_API_BODY_LIMITS, mediaTypeOf, readForm, type BodyProblem } from "../request-limits";
import { authenticateBearer, authenticateClient, authorizeParamsFrom, checkAuthorizeRequest, exchangeCode, refreshTokens, revokeToken } from "./oauth";
import { handleCity } from "./city";
import { handleEntity, scopeDenied } from "./entities";
import { rateLimited, unauthenticated } from "./errors";
import { forwardSocket } from "./hub-client";
import { subscribe } from "./subscriptions";

/** Calls carry bearer tokens, never cookies, so any origin may make them (no credentials are shared). */
function withCors(request: Request, response: Response): Response {
  const origin = request.headers.get("Origin");
  if (!origin) return response;
  const cors = new Response(response.body, response);
  cors.headers.set("Access-Control-Allow-Origin", origin);
  cors.headers.set("Access-Control-Expose-Headers", "Location, WWW-Authenticate, X-Total-Count, Retry-After");
  cors.headers.append("Vary", "Origin");
  return cors;
}

function preflight(request: Request): Response {
  return withCors(
    request,
    new Response(null, {
      status: 204,
      headers: {
        "Access-Control-Allow-Methods": "GET, POST, PUT, DELETE, OPTIONS",
        "Access-Control-Allow-Headers": "Authorization, Content-Type",
        "Access-Control-Max-Age": "600",
      },
    }),
  );
}

const tokenFormSchema = z.discriminatedUnion("grant_type", [
  z.object({
    grant_type: z.literal("authorization_code"),
    code: z.string().min(1).max(200),
    redirect_uri: z.string().min(1).max(2000),
    client_id: z.string().min(1).max(100),
    code_verifier: z.string().regex(/^[A-Za-z0-9\-._~]{43,128}$/, "code_verifier must be 43-128 unreserved characters"),
    client_secret: z.string().max(200).optional(),
  }),
  z.object({
    grant_type: z.literal("refresh_token"),
    refresh_token: z.string().min(1).max(200),
    client_id: z.string().min(1).max(100),
    client_secret: z.string().max(200).optional(),
  }),
]);

/** RFC 6749 section 5: token replies are never cached. */
const noStore = { "Cache-Control": "no-store", Pragma: "no-cache" };

/** An OAuth endpoint's refusal of its body, in the OAuth error shape (RFC 6749 section 5.2). */
function oauthBodyRefused(problem: BodyProblem): Response {
  return json({ error: "invalid_request", error_description: problem.message }, { status: problem.status, headers: noStore });
}

/** The OAuth endpoints' form, bounded; client credentials may come as HTTP Basic instead (RFC 6749 section 2.3.1). */
async function readOAuthForm(request: Request): Promise<Record<string, string> | Response> {
  // RFC 6749 section 3.2 and RFC 7009 section 2.1: these endpoints take a form; any other body is an invalid request.
  if (mediaTypeOf(request) !== "application/x-www-form-urlencoded") {
    return json({ error: "invalid_request", error_description: "The token endpoint takes a form-encoded body" }, { status: 400, headers: noStore });
  }
  const form = await readForm(request, DATA_API_BODY_LIMITS);
  if (!form.ok) return oauthBodyRefused(form);
  const fields = Object.fromEntries([...form.value.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  const basic = basicCredentialsOf(request);
  if (basic === "malformed" || (basic && fields.client_id !== undefined && fields.client_id !== basic.client_id)) {
    return json(
      { error: "invalid_client", error_description: "Unreadable or conflicting client credentials" },
      { status: 401, headers: { ...noStore, "WWW-Authenticate": 'Basic realm="data-api"' } },
    );
  }
  return basic ? { ...fields, ...basic } : fields;
}

function basicCredentialsOf(request: Request): { client_id: string; client_secret: string } | "malformed" | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/.exec(request.headers.get("Authorization") ?? "");
  if (!match?.[1]) return null;
  try {
    const [id, secret] = atob(match[1]).split(":", 2);
    return id && secret !== undefined ? { client_id: decodeURIComponent(id), client_secret: decodeURIComponent(secret) } : "malformed";
  } catch {
    return "malformed";
  }
}

async function token(request: Request, { db, tenant, now }: RequestContext): Promise<Response> {
  const body = await readOAuthForm(request);
  if (body instanceof Response) return body;
  const parsed = tokenFormSchema.safeParse(body);
  if (!parsed.success) {
    const unsupported = parsed.error.issues.some((i) => i.path[0] === "grant_type");
    return json(
      { error: unsupported ? "unsupported_grant_type" : "invalid_request", error_description: parsed.error.issues[0]?.message ?? "Invalid request" },
      { status: 400, headers: noStore },
    );
  }
  const form = parsed.data;
  const reply =
    form.grant_type === "authorization_code"
      ? await exchangeCode(db, tenant, { ...form, client_secret: form.client_secret ?? null }, now)
      : await refreshTokens(db, tenant, { ...form, client_secret: form.client_secret ?? null }, now);
  if ("error" in reply) return json(reply, { status: reply.error === "invalid_client" ? 401 : 400, headers: noStore });
  return json(reply, { headers: noStore });
}

const revokeFormSchema = z.object({
  token: z.string().min(1).max(200),
  token_type_hint: z.string().max(50).optional(),
  client_id: z.string().max(100).optional(),
  client_secret: z.string().max(200).optional(),
});

/** RFC 7009: the client authenticates (its secret when confidential, its id when public), then revokes one of its own tokens. */
async function revoke(request: Request, { db, tenant, now }: RequestContext): Promise<Response> {
  const body = await readOAuthForm(request);
  if (body instanceof Response) return body;
  const parsed = revokeFormSchema.safeParse(body);
  if (!parsed.success)
    return json({ error: "invalid_request", error_description: parsed.error.issues[0]?.message ?? "token is required" }, { status: 400, headers: noStore });
  const app = parsed.data.client_id ? await authenticateClient(db, tenant, parsed.data.client_id, parsed.data.client_secret ?? null) : null;
  if (!app)
    return json(
      { error: "invalid_client", error_description: "Unknown client or wrong credentials" },
      { status: 401, headers: { ...noStore, "WWW-Authenticate": 'Basic realm="data-api"' } },
    );
  await revokeToken(db, tenant, app, parsed.data.token, now);
  return new Response(null, { status: 200, headers: noStore });
}

/** GET /data-api/authorize: checks the request, then sends the browser to the consent page. */
async function authorize(request: Request, { db, tenant }: RequestContext): Promise<Response> {
  const url = new URL(request.url);
  const check = await checkAuthorizeRequest(db, tenant, authorizeParamsFrom(url.searchParams));
  if (!check.ok && check.kind === "redirect") return Response.redirect(check.location, 302);
  if (!check.ok) return json({ error: "invalid_request", error_description: check.message }, { status: 400 });
  return new Response(null, { status: 302, headers: { Location: `/login/authorize?${url.searchParams}` } });
}

/** GET /data-api/me: who a token acts for and what it carries. */
async function me(request: Request, context: RequestContext): Promise<Response> {
  const check = await authenticateBearer(context.db, context.tenant.hostname, request.headers.get("Authorization"), context.now);
  if (!check.ok) return unauthenticated(check);
  const user = await context.db.query.users.findFirst({ where: (u, { eq: equal }) => equal(u.id, check.userId) });
  return json({ classname: "User", uuid: check.userId, name: user?.name, email: user?.email, client_id: check.appId, scope: formatScopeText(check.scopes) });
}

/** GET /data-api/classes: the registry, so a client can discover classes, fields and scopes. */
function classes(): Response {
  return json({
    classes: entityClasses.map((entity) => ({
      classname: entity.classname,
      description: entity.description,
      scope: scopeForArea(entity.area),
      parent: entity.parent?.classname ?? null,
      children: childClassesOf(entity.classname).map((child) => child.collection),
      ids: entity.ids,
      read_only: entity.readOnly,
      change_only: entity.changeOnly,
      has_city: entity.hasCity,
      fields: entity.fields.map((f) => ({ name: f.api, type: f.type, writable: f.writable, create_only: f.createOnly, required: f.required })),
    })),
  });
}

/** `/data-api/{Class}/…`: the bearer token, then the entity, its place or a subscription. */
async function entityCall(request: Request, context: RequestContext, segments: string[]): Promise<Response> {
  const [classname = "", ...rest] = segments;
  const entity = findEntityClass(classname);
  if (!entity) return json({ error: "not_found", message: `No such class: ${classname}` }, { status: 404 });
  const check = await authenticateBearer(context.db, context.tenant.hostname, request.headers.get("Authorization"), context.now);
  if (!check.ok) return unauthenticated(check);
  const caller = {
    userId: check.userId,
    appId: check.appId,
    principal: { userId: check.userId, roles: await loadRoles(context.db, check.userId), tokenScopes: check.scopes },
  };
  const denied = scopeDenied(caller, entity, rest[0] || undefined);
  if (denied) return denied;
  if (rest.length === 2 && rest[1] === "city") return handleCity(request, context, caller, entity, rest[0] ?? "");
  if (rest.length === 2 && rest[1] === "subscribe") return subscribe(request, context, caller, entity, rest[0] ?? "");
  return handleEntity(request, context, caller, entity, rest);
}

/** The data service (`/data-api/*`): OAuth 2 with PKCE, then the entity API. */
export async function handleDataApi(request: Request, context: RequestContext): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (request.method === "OPTIONS") return preflight(request);
  // Counted per bearer token and per client before any other work (issue 28, workers/data-api/rate-limit.ts).
  const limited = await dataApiRateLimited(context.env, request.headers.get("Authorization"), clientKeyOf(request));
  if (limited) return withCors(request, rateLimited(limited.retryAfterSeconds));
  const route = `${request.method} ${pathname.replace(/\/$/, "")}`;
  if (route === "GET /data-api/socket") return forwardSocket(request, context);
  let response: Response;
  if (route === "GET /data-api/authorize") response = await authorize(request, context);
  else if (route === "POST /data-api/token") response = await token(request, context);
  else if (route === "POST /data-api/revoke") response = await revoke(request, context);
  else if (route === "GET /data-api/me") response = await me(request, context);
  else if (route === "GET /data-api/classes") response = classes();
  else {
    const segments = pathname.slice("/data-api/".length).replace(/\/$/, "").split("/");
    response = segments[0] ? await entityCall(request, context, segments) : apiNotFound(pathname);
  }
  return withCors(request, response);
}
