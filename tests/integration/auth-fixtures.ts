import { env, exports } from "cloudflare:workers";
import { desc } from "drizzle-orm";
import { initialMtimes } from "../../core/entity/field-mtimes";
import { capturedMail, openDb, roles, users } from "../../schema/d1";
import { hashPassword } from "../../workers/auth/password";
import { hostRequest } from "./fixtures";

export const worker = exports.default;
export const db = () => openDb(env.DB);

/** A user with a password and, optionally, roles. */
export async function createUserWithPassword(email: string, password: string | null, roleSpecs: RoleSpec[] = []) {
  const id = crypto.randomUUID();
  const fields = { email, name: `User ${email.split("@")[0]}`, passwordHash: password ? await hashPassword(password) : null };
  await db()
    .insert(users)
    .values({ id, ...fields, fieldMtimes: initialMtimes(fields, Date.now()) });
  const roleIds: string[] = [];
  for (const spec of roleSpecs) {
    const roleId = crypto.randomUUID();
    roleIds.push(roleId);
    await db()
      .insert(roles)
      .values({ id: roleId, userId: id, type: spec.type, clubId: spec.clubId ?? null, siteId: spec.siteId ?? null, scope: spec.scope ?? null });
  }
  return { id, email, roleIds };
}

/** A same-origin browser request to an /_auth endpoint with a JSON body. */
export function authPost(host: string, path: string, body: unknown, init: { cookie?: string; method?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Origin: `http://${host}:8787`,
    "Sec-Fetch-Site": "same-origin",
    ...init.headers,
  };
  if (init.cookie) headers.Cookie = init.cookie;
  return worker.fetch(hostRequest(host, path, { method: init.method ?? "POST", headers, body: JSON.stringify(body) }));
}

export function formPost(host: string, path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  return worker.fetch(
    hostRequest(host, path, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: `http://${host}:8787`, "Sec-Fetch-Site": "same-origin", ...headers },
      body: new URLSearchParams(form).toString(),
      redirect: "manual",
    }),
  );
}

/**
 * A same-origin form post to a page, as a browser sends it before hydration: Host and Origin both carry the
 * port (Remix compares them); pairs allow a name several times (checkbox groups).
 */
export function pagePost(host: string, path: string, fields: Record<string, string> | [string, string][], cookie?: string) {
  return worker.fetch(
    hostRequest(`${host}:8787`, path, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: `http://${host}:8787`,
        "Sec-Fetch-Site": "same-origin",
        ...(cookie ? { Cookie: cookie } : {}),
      },
      body: new URLSearchParams(fields).toString(),
      redirect: "manual",
    }),
  );
}

export type RoleSpec = { type: string; clubId?: string | null; siteId?: string | null; scope?: string | null };

/**
 * A new user holding these roles, signed in on `host`: the set-up of most page tests. `config` sets the roles'
 * configuration (a System or Site Administrator's area flags); the e-mail is fresh unless given.
 */
export async function signedInAs(host: string, roleSpecs: RoleSpec[], options: { email?: string; password?: string; config?: Record<string, boolean> } = {}) {
  const email = options.email ?? `user-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const password = options.password ?? "glacier-ski-42";
  const user = await createUserWithPassword(email, password, roleSpecs);
  if (options.config) await env.DB.prepare("UPDATE roles SET config = ? WHERE user_id = ?").bind(JSON.stringify(options.config), user.id).run();
  return { user, email, cookie: await signIn(host, email, password) };
}

/** A page as a browser gets it (signed in with `cookie` when given), its redirects left for the test to read. */
export function pageGet(host: string, path: string, cookie?: string) {
  return worker.fetch(hostRequest(host, path, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" }));
}

/** A same-origin multipart post to a page on localhost (a form with a file: uploads), signed in with `cookie`. */
export function multipartPost(path: string, fields: Record<string, string | File>, cookie: string) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  return worker.fetch(
    hostRequest("localhost:8787", path, {
      method: "POST",
      headers: { Origin: "http://localhost:8787", "Sec-Fetch-Site": "same-origin", Cookie: cookie },
      body: form,
      redirect: "manual",
    }),
  );
}

/** The `name=value` of a Set-Cookie for `name` in a response, or null. */
export function cookieFrom(response: Response, name: string): string | null {
  const found = response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  return found ? found.split(";")[0]! : null;
}

export async function latestMailTo(email: string) {
  const all = await db().select().from(capturedMail).orderBy(desc(capturedMail.createdAt));
  return all.find((m) => m.to === email) ?? null;
}

/** The latest captured message to `email` whose subject contains `subject` (other notices may have come after it). */
export async function latestMailWithSubject(email: string, subject: string) {
  const all = await db().select().from(capturedMail).orderBy(desc(capturedMail.createdAt));
  return all.find((m) => m.to === email && m.subject.includes(subject)) ?? null;
}

/** The token and email of the link in a captured message. */
export function linkIn(text: string): { url: URL; token: string; email: string } {
  const url = new URL(/https?:\/\/\S+/.exec(text)![0]);
  return { url, token: url.searchParams.get("token")!, email: url.searchParams.get("email")! };
}

/** Signs a user in by password on `host` and returns the session cookie. */
export async function signIn(host: string, email: string, password: string): Promise<string> {
  const attempt = await (await authPost(host, "/_auth/attempt", { email, method: "password" })).json<{ attempt_id: string }>();
  const verified = await (await authPost(host, "/_auth/attempt/verify", { attempt_id: attempt.attempt_id, verify: { password } })).json<{ token: string }>();
  const login = await formPost(host, "/_auth/login", { token: verified.token });
  return cookieFrom(login, "__Host-sl_session")!;
}
