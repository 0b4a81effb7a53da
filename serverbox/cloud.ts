/**
 * The platform as the box sees it (docs/api/serverbox-api.md): every call with a timeout, answering with
 * what happened rather than throwing, so the callers decide between retrying, waiting and giving up.
 */
import { retryAfterMs } from "../core/servers/backoff";
import type { ManualEntry, ManualReceipt, RangeEntry, RangeReceipt } from "../schema/wire/timing-api";

export const BOX_SOFTWARE_VERSION = "1.0.0";
/** No call waits longer than this for the platform: a venue's connection fails by hanging as often as by refusing. */
export const REQUEST_TIMEOUT_MS = 10_000;

export type CloudAnswer<T> =
  | { kind: "ok"; status: number; body: T }
  /** The platform answered with an error (4xx or 5xx). */
  | { kind: "http"; status: number; error: string; message: string; body: Record<string, unknown>; retryAfterMs: number | null }
  /** No answer: refused, reset, timed out, not JSON from a proxy. */
  | { kind: "network"; message: string };

/** A 5xx, a 408 or a 429 may pass by itself; any other 4xx is not made right by sending the same again. */
export function isTransient(answer: CloudAnswer<unknown>): boolean {
  return answer.kind === "network" || (answer.kind === "http" && (answer.status >= 500 || answer.status === 408 || answer.status === 429));
}

export interface PairStart {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

export interface TokenGrant {
  server_token: string;
  server_id: string;
  club_id: string;
}

export interface ReadReceipt {
  accepted: number;
  duplicates: number;
  unassigned: number;
  outside: number;
  last_seq: number;
}

export interface UpstreamRead {
  seq: number;
  chip?: string;
  bib?: number;
  time?: number;
  tod?: string;
  channel?: number;
}

export class CloudClient {
  constructor(
    readonly server: string,
    private token: string | null = null,
    private readonly timeoutMs = REQUEST_TIMEOUT_MS,
  ) {}

  useToken(token: string | null): void {
    this.token = token;
  }

  pair(serial: string, name: string): Promise<CloudAnswer<PairStart>> {
    return this.call("POST", "/serverbox-api/pair", { serial, name, software_version: BOX_SOFTWARE_VERSION }, false);
  }

  pollToken(deviceCode: string): Promise<CloudAnswer<TokenGrant>> {
    return this.call("POST", "/serverbox-api/token", { device_code: deviceCode }, false);
  }

  /** Reports in, with the web keypads paired with the box (decision 0084); the answer names those the club revoked. */
  heartbeat(
    webclients: { id: string; name: string; last_seen: number | null }[],
  ): Promise<CloudAnswer<{ server_id: string; club_id: string; name: string; time: number; revoked_webclients?: string[] }>> {
    return this.call("POST", "/serverbox-api/heartbeat", { software_version: BOX_SOFTWARE_VERSION, webclients });
  }

  races(): Promise<CloudAnswer<{ races: { id: string; name: string; start_time: number }[] }>> {
    return this.call("GET", "/serverbox-api/races");
  }

  race(raceId: string): Promise<CloudAnswer<unknown>> {
    return this.call("GET", `/serverbox-api/races/${encodeURIComponent(raceId)}`);
  }

  postReads(raceId: string, deviceId: string, boot: string, reads: UpstreamRead[]): Promise<CloudAnswer<ReadReceipt>> {
    return this.call("POST", `/timing-api/races/${encodeURIComponent(raceId)}/reads`, { boot, reads }, true, { "Timing-Device": deviceId });
  }

  postManual(raceId: string, entries: ManualEntry[]): Promise<CloudAnswer<ManualReceipt>> {
    return this.call("POST", `/timing-api/races/${encodeURIComponent(raceId)}/manual`, { entries });
  }

  postRange(raceId: string, deviceId: string, entries: RangeEntry[]): Promise<CloudAnswer<RangeReceipt>> {
    return this.call("POST", `/timing-api/races/${encodeURIComponent(raceId)}/range`, { entries }, true, { "Timing-Device": deviceId });
  }

  private async call<T>(method: string, path: string, body?: unknown, authorised = true, headers: Record<string, string> = {}): Promise<CloudAnswer<T>> {
    let response: Response;
    try {
      response = await fetch(new URL(path, this.server), {
        method,
        headers: {
          Accept: "application/json",
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          ...(authorised && this.token ? { Authorization: `Bearer ${this.token}` } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      return { kind: "network", message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
    }
    let parsed: unknown;
    try {
      parsed = await response.json();
    } catch {
      // A proxy's or a captive portal's page is no answer from the platform.
      return response.ok || response.status >= 500
        ? { kind: "network", message: `HTTP ${response.status} without JSON` }
        : { kind: "http", status: response.status, error: "not_json", message: `HTTP ${response.status}`, body: {}, retryAfterMs: null };
    }
    if (response.ok) return { kind: "ok", status: response.status, body: parsed as T };
    const fields = (parsed && typeof parsed === "object" ? parsed : {}) as Record<string, unknown>;
    return {
      kind: "http",
      status: response.status,
      error: typeof fields.error === "string" ? fields.error : `http_${response.status}`,
      message: typeof fields.message === "string" ? fields.message : `HTTP ${response.status}`,
      body: fields,
      retryAfterMs: retryAfterMs(response.headers.get("Retry-After"), Date.now()),
    };
  }
}
