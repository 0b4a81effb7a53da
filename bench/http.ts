import { request } from "node:http";

export interface BenchResponse {
  ms: number;
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
  /** How many times a stalled read was sent again before this answer (its `ms` is the last attempt's). */
  resent?: number;
}

/**
 * One request to the local Worker. node:http, because fetch refuses to set the Host header that selects
 * the tenant; Origin is the tenant's own so state-changing requests pass the CSRF check.
 */
export async function send(
  port: number,
  host: string,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<BenchResponse> {
  // A read is sent again when it stalls: `wrangler dev`'s proxy sometimes holds a GET sent just after a long request
  // until the next request arrives (the Worker logs it 3 ms after that one), which in a bench is never.
  const idempotent = method === "GET" || method === "HEAD";
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await sendOnce(port, host, method, path, body, headers, idempotent ? STALLED_READ_MS : SEND_TIMEOUT_MS);
      return attempt === 0 ? response : { ...response, resent: attempt };
    } catch (error) {
      if (!(error instanceof StalledRequest) || !idempotent || attempt >= READ_RESENDS) throw error;
      console.error(`bench: ${method} ${path}: no answer within ${STALLED_READ_MS / 1000} s, sent again`);
    }
  }
}

class StalledRequest extends Error {}

function sendOnce(
  port: number,
  host: string,
  method: string,
  path: string,
  body: string | undefined,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<BenchResponse> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent: false,
        headers: { Host: `${host}:${port}`, ...(body ? { Origin: `http://${host}:${port}` } : {}), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ ms: performance.now() - started, status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), headers: res.headers }),
        );
      },
    );
    req.on("error", reject);
    // Every wait has an end: a request that stalls fails the figure with its path instead of hanging the bench.
    req.setTimeout(timeoutMs, () => req.destroy(new StalledRequest(`${method} ${path}: no answer within ${timeoutMs / 1000} s`)));
    if (body) req.write(body);
    req.end();
  });
}

/** The longest one request may take: well above the slowest set-up (a demo race of 27,000 racers). */
const SEND_TIMEOUT_MS = 300_000;
/** The longest a read may take before it is sent again (the slowest read, a cold series page, takes about 2 s). */
const STALLED_READ_MS = 30_000;
const READ_RESENDS = 2;

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** Signs a user in on `host` with a password, as the sign-in page does, and returns the session cookie header. */
export async function signInCookie(port: number, host: string, user: { email: string; password: string }): Promise<string> {
  const json = { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin" };
  const form = { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin" };
  const attempt = JSON.parse((await send(port, host, "POST", "/_auth/attempt", JSON.stringify({ email: user.email, method: "password" }), json)).body) as {
    attempt_id: string;
  };
  const verified = JSON.parse(
    (await send(port, host, "POST", "/_auth/attempt/verify", JSON.stringify({ attempt_id: attempt.attempt_id, verify: { password: user.password } }), json))
      .body,
  ) as { token: string };
  const login = await send(port, host, "POST", "/_auth/login", new URLSearchParams({ token: verified.token }).toString(), form);
  const cookie = ([login.headers["set-cookie"] ?? []].flat() as string[]).map((c) => c.split(";")[0]).join("; ");
  if (!cookie.includes("sl_session")) throw new Error(`sign-in on ${host} failed: ${login.status}`);
  return cookie;
}
