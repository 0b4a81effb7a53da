/**
 * Input limits for the Worker's own APIs, applied before any parser sees a body: the media type (415), the
 * size counted off the stream (413), and for JSON the nesting depth and key count, found by a scan of the
 * text so that no deep or huge document ever reaches JSON.parse. Each API turns a refusal into its own
 * error format; nothing here throws on what a client sent.
 */

export interface BodyLimits {
  /** Bytes of body, counted as they arrive. */
  readonly maxBytes: number;
  /** Nesting of JSON objects and arrays. */
  readonly maxDepth: number;
  /** Object keys in a JSON document, or fields in a form. */
  readonly maxKeys: number;
}

const KiB = 1024;
const MiB = 1024 * KiB;

/** Sign-in, consent and passkey bodies are a few KB at most. */
export const AUTH_BODY_LIMITS: BodyLimits = { maxBytes: 64 * KiB, maxDepth: 32, maxKeys: 1_000 };
/** Entity writes and OAuth forms: a large entity tree still fits in 1 MiB. */
export const DATA_API_BODY_LIMITS: BodyLimits = { maxBytes: 1 * MiB, maxDepth: 32, maxKeys: 20_000 };
/** docs/api/timing-api.md: at most 1,000 reads (about 100 KB) and 512 KB per request. */
export const TIMING_API_BODY_LIMITS: BodyLimits = { maxBytes: 512 * KiB, maxDepth: 32, maxKeys: 20_000 };
/** Stripe sends events of a few KB; anything far larger is not Stripe. */
export const STRIPE_WEBHOOK_MAX_BYTES = 256 * KiB;
/** Pages (Remix actions): registration forms carry photos of up to 5 MB each (app/registration-uploads.server.ts). */
export const PAGE_MAX_BODY_BYTES = 32 * MiB;

export type BodyProblemCode = "invalid_json" | "invalid_form" | "too_deep" | "too_many_keys" | "too_large" | "unsupported_media_type";
export interface BodyProblem {
  readonly status: 400 | 413 | 415;
  readonly code: BodyProblemCode;
  readonly message: string;
}
export type BodyRead<T> = { ok: true; value: T } | ({ ok: false } & BodyProblem);

const refuse = (status: BodyProblem["status"], code: BodyProblemCode, message: string): { ok: false } & BodyProblem => ({ ok: false, status, code, message });
const tooLarge = (maxBytes: number) => refuse(413, "too_large", `A request body may be at most ${maxBytes} bytes`);

/** The media type of a request without its parameters, lower case ("" when none was sent). */
export function mediaTypeOf(request: Request): string {
  return (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/** A declared Content-Length over the limit, refused before a byte is read. */
export function declaresMoreThan(request: Request, maxBytes: number): boolean {
  const declared = request.headers.get("Content-Length");
  return declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > maxBytes;
}

/** The body's bytes, refused as soon as the count passes the limit (a missing or lying Content-Length changes nothing). */
export async function readLimitedBytes(request: Request, maxBytes: number): Promise<BodyRead<Uint8Array<ArrayBuffer>>> {
  if (declaresMoreThan(request, maxBytes)) return tooLarge(maxBytes);
  if (!request.body) return { ok: true, value: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const chunk = value instanceof Uint8Array ? value : new Uint8Array(value as ArrayBuffer);
      total += chunk.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return tooLarge(maxBytes);
      }
      chunks.push(chunk);
    }
  } catch {
    // A body that breaks off mid-stream is the client's fault, not ours.
    return refuse(400, "invalid_form", "The request body could not be read");
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, value: bytes };
}

/** The body as UTF-8 text within the size limit; bytes that are not UTF-8 are refused, never replaced. */
export async function readLimitedText(request: Request, maxBytes: number): Promise<BodyRead<string>> {
  const bytes = await readLimitedBytes(request, maxBytes);
  if (!bytes.ok) return bytes;
  try {
    return { ok: true, value: new TextDecoder("utf-8", { fatal: true }).decode(bytes.value) };
  } catch {
    return refuse(400, "invalid_json", "The body is not UTF-8 text");
  }
}

/**
 * Depth and key count of a JSON text without parsing it: brackets outside strings nest, a colon outside a
 * string ends a key. For valid JSON these are exact; for invalid JSON the parser fails no deeper than counted.
 */
export function scanJsonShape(text: string, limits: Pick<BodyLimits, "maxDepth" | "maxKeys">): BodyProblem | null {
  let depth = 0;
  let keys = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // A backslash escapes the next character, a quote included.
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limits.maxDepth) return { status: 400, code: "too_deep", message: `JSON may nest at most ${limits.maxDepth} levels` };
    } else if (c === 0x7d || c === 0x5d) {
      if (--depth < 0) return { status: 400, code: "invalid_json", message: "The body is not valid JSON" };
    } else if (c === 0x3a && ++keys > limits.maxKeys) return { status: 400, code: "too_many_keys", message: `JSON may hold at most ${limits.maxKeys} keys` };
  }
  return null;
}

function parseLimitedJson(text: string, limits: BodyLimits): BodyRead<unknown> {
  const problem = scanJsonShape(text, limits);
  if (problem) return { ok: false, ...problem };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return refuse(400, "invalid_json", "The body is not valid JSON");
  }
}

/** A JSON endpoint's body: application/json only (415 otherwise), within the limits, then parsed. */
export async function readJson(request: Request, limits: BodyLimits): Promise<BodyRead<unknown>> {
  if (mediaTypeOf(request) !== "application/json") return refuse(415, "unsupported_media_type", "Send JSON (Content-Type: application/json)");
  const text = await readLimitedText(request, limits.maxBytes);
  return text.ok ? parseLimitedJson(text.value, limits) : text;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A JSON endpoint whose body must be one object. */
export async function readJsonObject(request: Request, limits: BodyLimits): Promise<BodyRead<Record<string, unknown>>> {
  const read = await readJson(request, limits);
  if (!read.ok) return read;
  return isPlainObject(read.value) ? { ok: true, value: read.value } : refuse(400, "invalid_json", "The body must be a JSON object");
}

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/** A form endpoint's body (urlencoded or multipart) within the limits; 415 for any other type. */
export async function readForm(request: Request, limits: BodyLimits): Promise<BodyRead<FormData>> {
  const type = mediaTypeOf(request);
  if (!FORM_TYPES.includes(type)) return refuse(415, "unsupported_media_type", "Send a form (Content-Type: application/x-www-form-urlencoded)");
  const bytes = await readLimitedBytes(request, limits.maxBytes);
  if (!bytes.ok) return bytes;
  let form: FormData;
  try {
    if (type === "multipart/form-data")
      form = await new Response(bytes.value, { headers: { "Content-Type": request.headers.get("Content-Type") ?? "" } }).formData();
    else {
      form = new FormData();
      for (const [name, value] of new URLSearchParams(new TextDecoder().decode(bytes.value))) form.append(name, value);
    }
  } catch {
    return refuse(400, "invalid_form", "The form could not be read");
  }
  let fields = 0;
  for (const _ of form.keys()) if (++fields > limits.maxKeys) return refuse(400, "too_many_keys", `A form may hold at most ${limits.maxKeys} fields`);
  return { ok: true, value: form };
}

/**
 * An endpoint that takes one object as JSON or as a form (the sign-in API): either type within the limits;
 * no body at all reads as an empty object, so the endpoint's own schema names what is missing.
 */
export async function readObjectBody(request: Request, limits: BodyLimits): Promise<BodyRead<Record<string, unknown>>> {
  const type = mediaTypeOf(request);
  if (type === "application/json") return readJsonObject(request, limits);
  if (FORM_TYPES.includes(type)) {
    const form = await readForm(request, limits);
    return form.ok ? { ok: true, value: Object.fromEntries(form.value.entries()) } : form;
  }
  const bytes = await readLimitedBytes(request, limits.maxBytes);
  if (!bytes.ok) return bytes;
  if (bytes.value.byteLength === 0) return { ok: true, value: {} };
  return refuse(415, "unsupported_media_type", "Send JSON (Content-Type: application/json) or a form");
}
