// A local fake of Cloudflare's Custom Hostnames API (Cloudflare for SaaS) on Web APIs only, so the same module
// serves the Worker in workerd tests (routeCloudflareTo) and behind tests/fakes/cloudflare/server.ts for
// `npm start` and the browser tests. It speaks the v4 envelope, checks the bearer token, the zone and the
// body as Cloudflare does, and moves a hostname from pending to live one step per poll (or on command).
import { createCustomHostnameBodySchema } from "../../../schema/wire/custom-hostnames";

export interface CloudflareFakeOptions {
  zoneId: string;
  token: string;
  /** Polls (GETs of the hostname, or lists naming it) per step towards live; 0 keeps it still until told. */
  pollsPerStep?: number;
  now?: () => number;
  /** Hostnames from an earlier run (the server keeps them in a file, so `npm start` again finds them). */
  initial?: readonly FakeHostname[];
  /** Told after every change, with every hostname. */
  onChange?: (hostnames: FakeHostname[]) => void;
}

/** The stages a hostname goes through: [hostname status, certificate status]. */
export const STAGES = [
  ["pending", "initializing"],
  ["pending", "pending_validation"],
  ["active", "pending_issuance"],
  ["active", "pending_deployment"],
  ["active", "active"],
] as const;

export interface FakeHostname {
  id: string;
  hostname: string;
  method: string;
  minTls: string | undefined;
  stage: number;
  polls: number;
  /** Set by `move` or `fail`: overrides the stage's statuses. */
  status: string | null;
  sslStatus: string | null;
  ownershipValue: string;
  httpBody: string;
  createdAt: string;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

export interface CloudflareFake {
  /** The API, called as fetch(url, init) by the adapter. */
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  readonly hostnames: ReadonlyMap<string, FakeHostname>;
  readonly requestLog: readonly RequestLogEntry[];
  /** Takes a hostname straight to live (hostname and certificate active). */
  activate: (hostname: string) => void;
  /** As when the club's CNAME no longer points at the zone. */
  move: (hostname: string) => void;
  /** As when the certificate could not be validated in time. */
  fail: (hostname: string) => void;
  /** The next `count` API calls answer `status` with a Cloudflare error (or an HTML page for `html`). */
  failNext: (status: number, options?: { code?: number; message?: string; html?: boolean; count?: number }) => void;
}

const hex = (bytes: number) => [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");

function envelope(status: number, result: unknown, extra: Record<string, unknown> = {}): Response {
  return Response.json({ success: true, errors: [], messages: [], result, ...extra }, { status });
}

function failure(status: number, code: number, message: string): Response {
  return Response.json({ success: false, errors: [{ code, message }], messages: [], result: null }, { status });
}

function parsedOrText(body: string): unknown {
  try {
    return body ? (JSON.parse(body) as unknown) : null;
  } catch {
    return body;
  }
}

const ROUTE = /^(?:\/client\/v4)?\/zones\/([^/]+)\/custom_hostnames(?:\/([^/]+))?\/?$/;
const CONTROL = /^\/__fake\/custom_hostnames\/([^/]+)\/(activate|move|fail)$/;

export function createCloudflareFake(options: CloudflareFakeOptions): CloudflareFake {
  const byId = new Map<string, FakeHostname>((options.initial ?? []).map((h) => [h.id, { ...h }]));
  const changed = () => options.onChange?.([...byId.values()]);
  const requestLog: RequestLogEntry[] = [];
  const pollsPerStep = options.pollsPerStep ?? 1;
  const now = options.now ?? Date.now;
  let failures: { status: number; code: number; message: string; html: boolean; count: number } | null = null;

  const find = (hostname: string) => [...byId.values()].find((h) => h.hostname === hostname);

  function render(h: FakeHostname) {
    const [stageStatus, stageSsl] = STAGES[h.stage]!;
    const status = h.status ?? stageStatus;
    const sslStatus = h.sslStatus ?? stageSsl;
    const validating = sslStatus === "pending_validation";
    return {
      id: h.id,
      hostname: h.hostname,
      ssl: {
        id: `${h.id.slice(0, 8)}-ssl`,
        type: "dv",
        method: h.method,
        status: sslStatus,
        bundle_method: "ubiquitous",
        certificate_authority: "google",
        wildcard: false,
        settings: h.minTls ? { min_tls_version: h.minTls } : {},
        // Cloudflare documents that the creation's answer may lack these; they come with a later GET.
        ...(validating
          ? {
              validation_records:
                h.method === "txt"
                  ? [{ txt_name: `_acme-challenge.${h.hostname}`, txt_value: h.httpBody }]
                  : [{ http_url: `http://${h.hostname}/.well-known/acme-challenge/${h.id}`, http_body: h.httpBody }],
            }
          : {}),
      },
      status,
      ownership_verification: { type: "txt", name: `_cf-custom-hostname.${h.hostname}`, value: h.ownershipValue },
      ownership_verification_http: { http_url: `http://${h.hostname}/.well-known/cf-custom-hostname-challenge/${h.id}`, http_body: h.ownershipValue },
      verification_errors:
        status === "pending" ? ["custom hostname does not CNAME to this zone."] : status === "moved" ? ["custom hostname does not CNAME to this zone."] : [],
      created_at: h.createdAt,
    };
  }

  function poll(h: FakeHostname) {
    if (pollsPerStep === 0 || h.status || h.sslStatus) return;
    h.polls += 1;
    if (h.polls >= pollsPerStep && h.stage < STAGES.length - 1) {
      h.stage += 1;
      h.polls = 0;
      changed();
    }
  }

  async function api(request: Request, path: string): Promise<Response> {
    const auth = request.headers.get("Authorization") ?? "";
    if (auth !== `Bearer ${options.token}`) return failure(auth.startsWith("Bearer ") ? 403 : 400, 10000, "Authentication error");
    const route = ROUTE.exec(path);
    if (!route) return failure(404, 7000, "No route for that URI");
    const [, zone, id] = route;
    if (zone !== options.zoneId) return failure(404, 7003, `Could not route to ${path}, perhaps your object identifier is invalid?`);
    if (failures && failures.count > 0) {
      failures.count -= 1;
      const { status, code, message, html } = failures;
      if (html) return new Response(`<html><body><h1>${status} Bad gateway</h1></body></html>`, { status, headers: { "Content-Type": "text/html" } });
      return failure(status, code, message);
    }
    const method = request.method;
    if (!id && method === "POST") {
      let json: unknown;
      try {
        json = await request.json();
      } catch {
        return failure(400, 1004, "Invalid JSON in request body");
      }
      const body = createCustomHostnameBodySchema.safeParse(json);
      if (!body.success) return failure(400, 1412, `Invalid request body: ${body.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`);
      const hostname = body.data.hostname;
      if (hostname !== hostname.toLowerCase() || !/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z0-9-]{2,}$/.test(hostname))
        return failure(400, 1407, "Invalid custom hostname. Custom hostnames must be a valid hostname.");
      if (find(hostname)) return failure(409, 1406, "Duplicate custom hostname found.");
      const created: FakeHostname = {
        // Cloudflare's identifiers are 32 hex digits.
        id: hex(16),
        hostname,
        method: body.data.ssl.method,
        minTls: body.data.ssl.settings?.min_tls_version,
        stage: 0,
        polls: 0,
        status: null,
        sslStatus: null,
        ownershipValue: crypto.randomUUID(),
        httpBody: hex(16),
        createdAt: new Date(now()).toISOString(),
      };
      byId.set(created.id, created);
      changed();
      return envelope(200, render(created));
    }
    if (!id && method === "GET") {
      const wanted = new URL(request.url).searchParams.get("hostname");
      const found = [...byId.values()].filter((h) => wanted === null || h.hostname === wanted);
      for (const h of found) if (wanted !== null) poll(h);
      const result = found.map(render);
      return envelope(200, result, { result_info: { page: 1, per_page: 20, count: result.length, total_count: result.length, total_pages: 1 } });
    }
    const h = id ? byId.get(id) : undefined;
    if (!id || !["GET", "DELETE", "PATCH"].includes(method)) return failure(405, 10405, "Method not allowed");
    if (!h) return failure(404, 1436, "The custom hostname was not found.");
    if (method === "DELETE") {
      byId.delete(h.id);
      changed();
      return envelope(200, { id: h.id });
    }
    if (method === "GET") poll(h);
    return envelope(200, render(h));
  }

  function control(hostname: string, action: string): boolean {
    const h = find(decodeURIComponent(hostname));
    if (!h) return false;
    if (action === "activate") Object.assign(h, { stage: STAGES.length - 1, status: null, sslStatus: null });
    if (action === "move") h.status = "moved";
    if (action === "fail") h.sslStatus = "validation_timed_out";
    changed();
    return true;
  }

  const fake: CloudflareFake = {
    async fetch(input, init) {
      const request = new Request(input, init);
      const path = new URL(request.url).pathname;
      const commanded = CONTROL.exec(path);
      // The development-only control: lets a newcomer see a domain go live with no real DNS.
      if (commanded && request.method === "POST") {
        return control(commanded[1]!, commanded[2]!) ? Response.json({ ok: true }) : Response.json({ ok: false, error: "No such hostname" }, { status: 404 });
      }
      const body = request.method === "POST" ? await request.clone().text() : "";
      const response = await api(request, path);
      requestLog.push({ method: request.method, path: `${path}${new URL(request.url).search}`, status: response.status, body: parsedOrText(body) });
      return response;
    },
    get hostnames() {
      return new Map([...byId.values()].map((h) => [h.hostname, h]));
    },
    requestLog,
    activate: (hostname) => void control(hostname, "activate"),
    move: (hostname) => void control(hostname, "move"),
    fail: (hostname) => void control(hostname, "fail"),
    failNext(status, extra = {}) {
      failures = {
        status,
        code: extra.code ?? (status >= 500 ? 1000 : 1004),
        message: extra.message ?? "Internal error",
        html: extra.html ?? false,
        count: extra.count ?? 1,
      };
    },
  };
  return fake;
}
