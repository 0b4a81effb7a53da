/**
 * Malformed input (issue 28): every JSON or form endpoint of the Worker's own APIs answers whatever it is sent
 * with a 2xx or 4xx in its API's error format, never a 5xx. Bodies are bounded and shape-checked before parsing.
 */
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import handler from "../../workers/index";
import { AUTH_BODY_LIMITS, scanJsonShape } from "../../workers/request-limits";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { createUserWithPassword, db } from "./auth-fixtures";
import { createApp, issueToken } from "./oauth-fixtures";
import { createTimedRace } from "./timing-fixtures";

const HOST = "localhost";
const RUNS = 1000;
/**
 * The Worker's own fetch handler, called in this isolate: `exports.default.fetch` slows with every call in this
 * pool version (about 8 ms a request after 300 calls, 200 ms after 600), which thousands of fuzz cases cannot afford.
 */
async function fetchWorker(request: Request): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await handler.fetch(request as Parameters<typeof handler.fetch>[0], env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}
const worker = { fetch: fetchWorker };

const sameOrigin = { Origin: `http://${HOST}:8787`, "Sec-Fetch-Site": "same-origin" };

interface Sent {
  contentType: string | null;
  body: string;
}

const json = (value: unknown): Sent => ({ contentType: "application/json", body: JSON.stringify(value) });

/** Values nested to any depth, built from arrays and objects around JSON leaves. */
const { nested } = fc.letrec<{ nested: unknown }>((tie) => ({
  nested: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.jsonValue({ maxDepth: 1 }),
    fc.array(tie("nested"), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie("nested"), { maxKeys: 3 }),
  ),
}));

/** Objects with the field names the endpoints read, so validation is reached with wrong values. */
const knownKeys = [
  "email",
  "password",
  "attempt_id",
  "verify",
  "token",
  "credential",
  "user_id",
  "attempt_token",
  "goto",
  "client_id",
  "redirect_uri",
  "response_type",
  "state",
  "code_challenge",
  "code_challenge_method",
  "approve",
  "name",
  "reads",
  "boot",
  "seq",
  "grant_type",
  "code",
  "refresh_token",
  "code_verifier",
  "passkey_id",
  "method",
  "club",
  "id",
  "response",
  "clientDataJSON",
];
const plausible = fc.dictionary(fc.constantFrom(...knownKeys), fc.oneof(fc.jsonValue({ maxDepth: 3 }), nested), { maxKeys: 6 });

/** A JSON text cut short somewhere. */
const truncated = fc.tuple(fc.oneof(plausible, fc.jsonValue()), fc.double({ min: 0, max: 1, noNaN: true })).map(([value, at]): Sent => {
  const text = JSON.stringify(value) ?? "";
  return { contentType: "application/json", body: text.slice(0, Math.floor(text.length * at)) };
});

const brackets = fc.tuple(fc.integer({ min: 1, max: 3000 }), fc.boolean(), fc.constantFrom("[", '{"a":')).map(
  ([depth, closed, open]): Sent => ({
    contentType: "application/json",
    body: open.repeat(depth) + (closed ? "1" + (open === "[" ? "]" : "}").repeat(depth) : ""),
  }),
);

const wrongType = fc
  .tuple(
    fc.constantFrom("text/plain", "application/xml", "application/octet-stream", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded", null),
    fc.oneof(
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify(v) ?? ""),
    ),
  )
  .map(([contentType, body]): Sent => ({ contentType, body }));

const formEncoded = fc
  .dictionary(fc.oneof(fc.constantFrom(...knownKeys), fc.string({ maxLength: 6 })), fc.string({ maxLength: 40 }), { maxKeys: 8 })
  .map((fields): Sent => ({ contentType: "application/x-www-form-urlencoded", body: new URLSearchParams(fields).toString() }));

const huge = fc.tuple(fc.constantFrom(20_000, 70_000, 600_000), fc.constantFrom("application/json", "application/x-www-form-urlencoded")).map(
  ([size, contentType]): Sent => ({
    contentType,
    body: contentType === "application/json" ? JSON.stringify({ email: "x".repeat(size) }) : `email=${"x".repeat(size)}`,
  }),
);

const anyBody: fc.Arbitrary<Sent> = fc.oneof(
  { arbitrary: fc.jsonValue().map(json), weight: 4 },
  { arbitrary: nested.map(json), weight: 3 },
  { arbitrary: plausible.map(json), weight: 5 },
  { arbitrary: truncated, weight: 2 },
  { arbitrary: brackets, weight: 1 },
  { arbitrary: wrongType, weight: 2 },
  { arbitrary: formEncoded, weight: 3 },
  { arbitrary: huge, weight: 1 },
);

type Format = "auth" | "data" | "oauth" | "timing";

/** The error shape of each API: /_auth {error}, data API and timing {error, message}, OAuth {error, error_description}. */
function expectFormat(format: Format, status: number, text: string, contentType: string | null) {
  expect(status, text.slice(0, 300)).toBeGreaterThanOrEqual(200);
  expect(status, text.slice(0, 300)).toBeLessThan(500);
  if (status >= 300 && status < 400) return;
  if (text === "" && status === 200) return; // RFC 7009: a revocation's 200 carries no body.
  expect(contentType ?? "").toContain("application/json");
  const body: unknown = JSON.parse(text);
  if (status < 400) return;
  // Sign-in replies of section 7 carry their own status ("failed") instead of an error; passkey sign-in is a list.
  const first = Array.isArray(body) ? (body[0] as Record<string, unknown>) : (body as Record<string, unknown>);
  if (format === "auth" && (first.status === "failed" || first.verified === false || typeof first.reason === "string")) return;
  expect(typeof first.error, text.slice(0, 300)).toBe("string");
  if (format === "data" || format === "timing") expect(typeof first.message).toBe("string");
  if (format === "oauth") expect(typeof first.error_description).toBe("string");
}

async function send(host: string, method: string, path: string, sent: Sent, headers: Record<string, string> = {}) {
  const all: Record<string, string> = { ...sameOrigin, ...headers };
  if (sent.contentType) all["Content-Type"] = sent.contentType;
  const response = await worker.fetch(hostRequest(host, path, { method, headers: all, body: sent.body, redirect: "manual" }));
  return { status: response.status, text: await response.text(), contentType: response.headers.get("Content-Type") };
}

async function fuzz(format: Format, target: () => { host: string; method: string; path: string; headers?: Record<string, string> }) {
  const started = Date.now();
  await fc.assert(
    fc.asyncProperty(anyBody, async (sent) => {
      const { host, method, path, headers } = target();
      const reply = await send(host, method, path, sent, headers);
      expectFormat(format, reply.status, reply.text, reply.contentType);
    }),
    { numRuns: RUNS },
  );
  console.log(`fuzz ${format} ${target().method} ${target().path.replace(/[0-9a-f-]{36}/g, ":id")}: ${RUNS} cases in ${Date.now() - started} ms`);
}

const authEndpoints = [
  "/_auth/attempt",
  "/_auth/attempt/verify",
  "/_auth/verify",
  "/_auth/mail",
  "/_auth/set_password",
  "/_auth/reset/check",
  "/_auth/login",
  "/_auth/signup",
  "/_auth/app",
  "/_auth/passkey/register/begin",
  "/_auth/passkey/register/complete",
  "/_auth/passkey/authenticate/begin",
  "/_auth/passkey/authenticate/complete",
];

describe("the JSON scanner", () => {
  it("counts depth and keys outside strings only", () => {
    const limits = { maxDepth: 3, maxKeys: 2 };
    expect(scanJsonShape('[[["]]]]]]"]]]', limits)).toBeNull();
    expect(scanJsonShape("[[[[1]]]]", limits)?.code).toBe("too_deep");
    expect(scanJsonShape('{"a:b":1,"c\\":":2}', limits)).toBeNull();
    expect(scanJsonShape('{"a":1,"b":2,"c":3}', limits)?.code).toBe("too_many_keys");
    expect(scanJsonShape("]][[", limits)?.code).toBe("invalid_json");
  });

  it("agrees with JSON.parse on the depth of any JSON value", () => {
    const depthOf = (v: unknown): number => (typeof v === "object" && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0);
    fc.assert(
      fc.property(nested, (value) => {
        const depth = depthOf(value);
        const text = JSON.stringify(value);
        expect(scanJsonShape(text, { maxDepth: depth, maxKeys: 1e9 })).toBeNull();
        if (depth > 0) expect(scanJsonShape(text, { maxDepth: depth - 1, maxKeys: 1e9 })?.code).toBe("too_deep");
      }),
      { numRuns: 500 },
    );
  });
});

describe("fuzzed bodies never get a 5xx", () => {
  for (const path of authEndpoints) {
    it(`POST ${path}`, async () => fuzz("auth", () => ({ host: HOST, method: "POST", path })), 60_000);
  }

  it("POST /data-api/token", async () => fuzz("oauth", () => ({ host: HOST, method: "POST", path: "/data-api/token" })), 60_000);
  it("POST /data-api/revoke", async () => fuzz("oauth", () => ({ host: HOST, method: "POST", path: "/data-api/revoke" })), 60_000);
  // A serverbox's pairing calls take no credential: the body alone decides (docs/api/serverbox-api.md).
  it("POST /serverbox-api/pair", async () => fuzz("timing", () => ({ host: HOST, method: "POST", path: "/serverbox-api/pair" })), 60_000);
  it("POST /serverbox-api/token", async () => fuzz("timing", () => ({ host: HOST, method: "POST", path: "/serverbox-api/token" })), 60_000);

  describe("entity writes and device batches, authenticated so the body is what decides", () => {
    let token = "";
    let registrationId = "";
    let timing: Awaited<ReturnType<typeof createTimedRace>>;
    beforeAll(async () => {
      const { club } = await createSiteWithRace(db(), { hostname: "fuzz-entities.localhost", siteName: "Fuzz", raceName: "Fuzz race" });
      const user = await createUserWithPassword("fuzz-entities@example.com", null, [{ type: "org_admin", clubId: club.id }]);
      token = await issueToken(user.id, await createApp({ scopes: "registrations" }), HOST, "registrations");
      const created = await worker.fetch(
        hostRequest(HOST, "/data-api/Registration/", {
          method: "PUT",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ club: club.id, name: "Fuzz 5K" }),
        }),
      );
      registrationId = created.headers.get("Location")!.split("/").pop()!;
      timing = await createTimedRace();
    });

    it(
      "PUT /data-api/Registration/",
      async () => fuzz("data", () => ({ host: HOST, method: "PUT", path: "/data-api/Registration/", headers: { Authorization: `Bearer ${token}` } })),
      60_000,
    );
    it(
      "POST /data-api/Registration/:id",
      async () =>
        fuzz("data", () => ({ host: HOST, method: "POST", path: `/data-api/Registration/${registrationId}`, headers: { Authorization: `Bearer ${token}` } })),
      60_000,
    );
    it(
      "POST /timing-api/races/:id/reads",
      async () =>
        fuzz("timing", () => ({
          host: timing.host,
          method: "POST",
          path: `/timing-api/races/${timing.race.id}/reads`,
          headers: { Authorization: `Bearer ${timing.credential.token}`, Origin: `http://${timing.host}:8787` },
        })),
      60_000,
    );
  });
});

describe("limits before parsing", () => {
  const deep = "[".repeat(100_000) + "]".repeat(100_000);

  it("refuses 100,000-deep nesting with 400 (413 where the text alone is over the limit) on every API", { timeout: 20_000 }, async () => {
    // 200,000 bytes: over the sign-in API's 64 KiB before depth is even looked at.
    const attempt = await send(HOST, "POST", "/_auth/attempt", { contentType: "application/json", body: deep });
    expect(attempt.status).toBe(413);
    const unclosed = await send(HOST, "POST", "/_auth/attempt", { contentType: "application/json", body: "[".repeat(60_000) });
    expect(unclosed.status).toBe(400);
    expect(JSON.parse(unclosed.text)).toEqual({ error: "JSON may nest at most 32 levels" });
    const { club } = await createSiteWithRace(db(), { hostname: "deep.localhost", siteName: "Deep", raceName: "Deep race" });
    const user = await createUserWithPassword("deep@example.com", null, [{ type: "org_admin", clubId: club.id }]);
    const token = await issueToken(user.id, await createApp({ scopes: "registrations" }), HOST, "registrations");
    const entity = await send(
      HOST,
      "PUT",
      "/data-api/Registration/",
      { contentType: "application/json", body: `{"name":${"[".repeat(100_000)}` },
      { Authorization: `Bearer ${token}` },
    );
    expect(entity.status).toBe(400);
    expect(JSON.parse(entity.text)).toEqual({ error: "invalid_request", message: "JSON may nest at most 32 levels" });
    const oauth = await send(HOST, "POST", "/data-api/token", { contentType: "application/x-www-form-urlencoded", body: `grant_type=${"%5B".repeat(30_000)}` });
    expect(oauth.status).toBe(400);
    const timing = await createTimedRace();
    const reads = await send(
      timing.host,
      "POST",
      `/timing-api/races/${timing.race.id}/reads`,
      { contentType: "application/json", body: deep },
      { Origin: `http://${timing.host}:8787` },
    );
    expect(reads.status).toBe(400);
    expect(JSON.parse(reads.text)).toMatchObject({ error: "too_deep" });
  });

  it("refuses a body over the limit with 413, whether or not Content-Length says so", async () => {
    const big = JSON.stringify({ email: "x".repeat(AUTH_BODY_LIMITS.maxBytes) });
    const declared = await send(HOST, "POST", "/_auth/attempt", { contentType: "application/json", body: big });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.text)).toEqual({ error: `A request body may be at most ${AUTH_BODY_LIMITS.maxBytes} bytes` });
    const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
    let sentChunks = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sentChunks++ < 10) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const streamed = await worker.fetch(
      hostRequest(HOST, "/_auth/attempt", { method: "POST", headers: { ...sameOrigin, "Content-Type": "application/json" }, body: stream }),
    );
    expect(streamed.status).toBe(413);
    // Stopped reading soon after the limit instead of taking the whole body.
    expect(sentChunks).toBeLessThan(10);
  });

  it("refuses a body of the wrong type with 415 in each API's format", { timeout: 20_000 }, async () => {
    const auth = await send(HOST, "POST", "/_auth/attempt", { contentType: "text/plain", body: '{"email":"a@b.c"}' });
    expect(auth.status).toBe(415);
    expect(JSON.parse(auth.text)).toEqual({ error: "Send JSON (Content-Type: application/json) or a form" });
    const timing = await createTimedRace();
    const reads = await send(
      timing.host,
      "POST",
      `/timing-api/races/${timing.race.id}/reads`,
      { contentType: "text/plain", body: "{}" },
      { Authorization: `Bearer ${timing.credential.token}`, Origin: `http://${timing.host}:8787` },
    );
    expect(reads.status).toBe(415);
    expect(JSON.parse(reads.text)).toMatchObject({ error: "unsupported_media_type" });
    const { club } = await createSiteWithRace(db(), { hostname: "type.localhost", siteName: "Type", raceName: "Type race" });
    const user = await createUserWithPassword("type@example.com", null, [{ type: "org_admin", clubId: club.id }]);
    const token = await issueToken(user.id, await createApp({ scopes: "registrations" }), HOST, "registrations");
    const entity = await send(HOST, "PUT", "/data-api/Registration/", { contentType: "text/plain", body: "{}" }, { Authorization: `Bearer ${token}` });
    expect(entity.status).toBe(415);
    expect(JSON.parse(entity.text)).toMatchObject({ error: "unsupported_media_type", message: "Send JSON (Content-Type: application/json)" });
  });

  it("answers malformed app authorisations and passkey completions with 400", async () => {
    const app = await send(HOST, "POST", "/_auth/app", { contentType: "multipart/form-data; boundary=zz", body: "--zz\r\ngarbage" });
    expect(app.status).toBe(400);
    expect(JSON.parse(app.text)).toEqual({ error: "The form could not be read" });
    for (const path of ["/_auth/passkey/authenticate/complete", "/_auth/passkey/register/complete"]) {
      const reply = await send(HOST, "POST", path, json({ user_id: "u", credential: { id: "x", response: 5 } }));
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.text)).toHaveProperty("error");
    }
  });

  it("refuses a page request declaring more than the global limit before Remix sees it", async () => {
    const response = await worker.fetch(
      hostRequest(HOST, "/login", {
        method: "POST",
        headers: { ...sameOrigin, "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(64 * 1024 * 1024) },
        body: "a=1",
      }),
    );
    expect(response.status).toBe(413);
  });
});
