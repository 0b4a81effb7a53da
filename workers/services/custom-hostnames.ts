/**
 * The thin adapter in front of Cloudflare's Custom Hostnames API (Cloudflare for SaaS, decision 0047): the four
 * calls the platform makes, every answer parsed with zod, and Cloudflare's refusals kept in its own words.
 * `CLOUDFLARE_API_BASE` points it at the local fake (tests/fakes/cloudflare) in development and tests.
 */
import type { DomainRecord } from "../../schema/d1";
import { cloudflareEnvelopeSchema, customHostnameSchema, type CreateCustomHostnameBody, type CustomHostname } from "../../schema/wire/custom-hostnames";
import * as z from "zod";

export const CLOUDFLARE_API = "https://api.cloudflare.com/client/v4";

/** A custom hostname as the platform keeps it. */
export interface HostnameState {
  id: string;
  hostname: string;
  status: string;
  sslStatus: string | null;
  /** The TXT records to create: ownership first, then certificate validation (when Cloudflare asks for TXT). */
  records: DomainRecord[];
  errors: string[];
}

export interface CustomHostnameGateway {
  create(hostname: string): Promise<HostnameState>;
  /** The hostname, or null when Cloudflare no longer has it. */
  get(id: string): Promise<HostnameState | null>;
  findByHostname(hostname: string): Promise<HostnameState | null>;
  /** Deletes it; one Cloudflare no longer has counts as deleted. */
  remove(id: string): Promise<void>;
}

/** Cloudflare refused or could not be reached: `status` 0 means no answer; `code` is Cloudflare's error code. */
export class CustomHostnameError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: number | null,
  ) {
    super(message);
    this.name = "CustomHostnameError";
  }

  /** Cloudflare already has this hostname in the zone (a retry after a lost answer, or an earlier failed cleanup). */
  get duplicate(): boolean {
    return this.status === 409 || this.code === DUPLICATE_HOSTNAME;
  }
}

/** Cloudflare's code for "Duplicate custom hostname found." */
export const DUPLICATE_HOSTNAME = 1406;

// Integration tests route the calls to the in-process fake; nothing else sets this. It lives on the isolate's
// global, not in this module, because the test runner may load this module twice (test file and Worker).
const TRANSPORT = Symbol.for("startline.cloudflareTransport");
type TransportHolder = { [TRANSPORT]?: typeof fetch | null };

/** Sends every Custom Hostnames call to `fetchFn` (the in-process fake); null restores the network. */
export function routeCloudflareTo(fetchFn: typeof fetch | null): void {
  (globalThis as TransportHolder)[TRANSPORT] = fetchFn;
}

function stateOf(hostname: CustomHostname): HostnameState {
  const records: DomainRecord[] = [];
  const ownership = hostname.ownership_verification;
  if (ownership?.name && ownership.value) records.push({ type: "TXT", name: ownership.name, value: ownership.value });
  for (const record of hostname.ssl?.validation_records ?? []) {
    if (record.txt_name && record.txt_value) records.push({ type: "TXT", name: record.txt_name, value: record.txt_value });
  }
  const errors = [
    ...(hostname.verification_errors ?? []).map((e) => (typeof e === "string" ? e : JSON.stringify(e))),
    ...(hostname.ssl?.validation_errors ?? []).flatMap((e) => (e.message ? [e.message] : [])),
  ];
  return { id: hostname.id, hostname: hostname.hostname, status: hostname.status, sslStatus: hostname.ssl?.status ?? null, records, errors };
}

const TIMEOUT_MS = 10_000;

/** The adapter for this environment, or null when no zone or token is set (custom domains are then off). */
export function customHostnameGateway(env: Pick<Env, "CLOUDFLARE_API_BASE" | "CLOUDFLARE_ZONE_ID" | "CLOUDFLARE_API_TOKEN">): CustomHostnameGateway | null {
  const { CLOUDFLARE_ZONE_ID: zone, CLOUDFLARE_API_TOKEN: token } = env;
  if (!zone || !token) return null;
  const base = `${(env.CLOUDFLARE_API_BASE || CLOUDFLARE_API).replace(/\/+$/, "")}/zones/${encodeURIComponent(zone)}/custom_hostnames`;

  /** One call: the envelope's result when Cloudflare says success, else a CustomHostnameError in its words. */
  async function call(method: string, path: string, body?: unknown): Promise<unknown> {
    const send = (globalThis as TransportHolder)[TRANSPORT] ?? fetch;
    let response: Response;
    try {
      response = await send(`${base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      throw new CustomHostnameError("Cloudflare could not be reached.", 0, null);
    }
    const text = await response.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // Not JSON (a gateway's HTML page): the status says enough.
    }
    const envelope = cloudflareEnvelopeSchema.safeParse(json);
    if (!envelope.success)
      throw new CustomHostnameError(`Cloudflare answered ${response.status} with something other than its API's reply.`, response.status, null);
    const { success, errors, result } = envelope.data;
    if (!success || !response.ok) {
      const first = errors[0];
      throw new CustomHostnameError(
        first ? first.message : `Cloudflare answered ${response.status}.`,
        response.ok ? 502 : response.status,
        first?.code ?? null,
      );
    }
    return result;
  }

  function parsed<T extends z.ZodType>(schema: T, result: unknown): z.output<T> {
    const checked = schema.safeParse(result);
    if (!checked.success) throw new CustomHostnameError("Cloudflare's reply was not the custom hostname it should be.", 502, null);
    return checked.data;
  }

  return {
    async create(hostname) {
      // http validation: once the club's CNAME is in place Cloudflare validates and renews the certificate by itself.
      const body: CreateCustomHostnameBody = { hostname, ssl: { method: "http", type: "dv", settings: { min_tls_version: "1.2" } } };
      return stateOf(parsed(customHostnameSchema, await call("POST", "", body)));
    },
    async get(id) {
      try {
        return stateOf(parsed(customHostnameSchema, await call("GET", `/${encodeURIComponent(id)}`)));
      } catch (error) {
        if (error instanceof CustomHostnameError && error.status === 404) return null;
        throw error;
      }
    },
    async findByHostname(hostname) {
      const list = parsed(z.array(customHostnameSchema), await call("GET", `?${new URLSearchParams({ hostname })}`));
      const found = list.find((h) => h.hostname === hostname);
      return found ? stateOf(found) : null;
    },
    async remove(id) {
      try {
        await call("DELETE", `/${encodeURIComponent(id)}`);
      } catch (error) {
        if (error instanceof CustomHostnameError && error.status === 404) return;
        throw error;
      }
    },
  };
}
