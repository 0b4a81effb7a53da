// HTTP for the live-path benchmark: every request has a deadline, and a 503 (wrangler's local proxy says so
// while the Worker is busy or restarting), a reset connection or a timeout is retried with exponential
// backoff and jitter, a bounded number of times. A retried batch of reads is harmless: the race recognises
// reads it already has by device, boot and sequence number.
import { type Agent, type IncomingHttpHeaders, request } from "node:http";

export interface Target {
  port: number;
  /** The Host header: the Worker picks the tenant from it. */
  host: string;
  /** Connect here instead of `port` (the Worker's own workerd socket), keeping `host:port` as the Host header. */
  connectPort?: number;
}

export interface Reply {
  status: number;
  body: string;
  headers: IncomingHttpHeaders;
  /** From the first attempt's start to the final reply. */
  ms: number;
  /** Attempts made (1 when the first one answered). */
  attempts: number;
  /** When the final reply ended, on the shared monotonic clock (nowMs). */
  at: number;
}

export interface RequestOptions {
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  agent?: Agent;
  timeoutMs?: number;
  /** Attempts in all, the first included. */
  attempts?: number;
}

const RETRIED_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT", "ECONNABORTED", "EHOSTUNREACH"]);
const BACKOFF_BASE_MS = 100;
const BACKOFF_CAP_MS = 3_000;

/** Milliseconds on CLOCK_MONOTONIC: the same clock in every process on the machine, so children's times compare with ours. */
export function nowMs(): number {
  return Number(process.hrtime.bigint() / 1000n) / 1000;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class RequestTimeout extends Error {
  readonly code = "ETIMEDOUT";
}

/** One attempt, ended by its deadline if the reply does not come in time. */
function attempt(target: Target, path: string, options: RequestOptions): Promise<{ status: number; body: string; headers: IncomingHttpHeaders }> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: target.connectPort ?? target.port,
        method: options.method ?? "GET",
        path,
        agent: options.agent ?? false,
        headers: { Host: `${target.host}:${target.port}`, ...(options.body ? { Origin: `http://${target.host}:${target.port}` } : {}), ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), headers: res.headers });
        });
        res.on("error", (error) => {
          clearTimeout(timer);
          reject(error);
        });
      },
    );
    const timer = setTimeout(() => req.destroy(new RequestTimeout(`${options.method ?? "GET"} ${path}: no reply within ${timeoutMs} ms`)), timeoutMs);
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    if (options.body) req.write(options.body);
    req.end();
  });
}

function retriable(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return error instanceof RequestTimeout || (code !== undefined && RETRIED_CODES.has(code)) || /socket hang up/i.test(String(error));
}

/** Exponential backoff with equal jitter: half the step for sure, the other half at random. */
export function backoffMs(retry: number): number {
  const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry);
  return step / 2 + Math.random() * (step / 2);
}

/** A request with a deadline per attempt, retried on 503, resets and timeouts. Throws when every attempt failed. */
export async function requestWithRetry(target: Target, path: string, options: RequestOptions = {}): Promise<Reply> {
  const attempts = options.attempts ?? 6;
  const started = nowMs();
  let last: unknown = null;
  for (let n = 1; n <= attempts; n++) {
    try {
      const reply = await attempt(target, path, options);
      if (reply.status !== 503 || n === attempts) {
        const at = nowMs();
        return { ...reply, ms: at - started, attempts: n, at };
      }
      last = new Error(`503 ${reply.body.slice(0, 200)}`);
    } catch (error) {
      if (!retriable(error)) throw error;
      last = error;
    }
    if (n < attempts) await sleep(backoffMs(n - 1));
  }
  throw new Error(`${options.method ?? "GET"} ${path}: gave up after ${attempts} attempts (${String(last)})`);
}

/** A JSON POST that must answer 200. */
export async function postJson<T>(target: Target, path: string, body: unknown, options: RequestOptions = {}): Promise<{ value: T; reply: Reply }> {
  const reply = await requestWithRetry(target, path, {
    ...options,
    method: "POST",
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", ...options.headers },
  });
  if (reply.status !== 200) throw new Error(`POST ${path}: ${reply.status} ${reply.body.slice(0, 300)}`);
  return { value: JSON.parse(reply.body) as T, reply };
}
