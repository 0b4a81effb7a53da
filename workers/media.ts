/**
 * Uploaded site images from R2 (`/media/sites/{site}/{sha256}.{ext}`). Names are the content's hash, so a
 * file never changes under its address and is cached for a year; a new logo is a new address.
 */
import { checkImage, IMAGE_LIMITS, MEDIA_PATH, SIGNATURE_BYTES, type ImagePurpose } from "../core/sites/images";
import type { RequestContext } from "./request-context";

export async function handleMedia(request: Request, { env, tenant }: RequestContext): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") return new Response("Method not allowed", { status: 405, headers: { Allow: "GET, HEAD" } });
  const { pathname } = new URL(request.url);
  const siteId = MEDIA_PATH.exec(pathname)?.[1];
  // A club's site serves its own images only; the main and super-admin hosts (their settings pages) serve any.
  if (!siteId || (tenant.kind === "site" && tenant.siteId !== siteId)) return new Response("Not found", { status: 404 });
  const object = await env.UPLOADS.get(pathname.slice(1));
  if (!object) return new Response("Not found", { status: 404 });
  const headers = new Headers({
    "Content-Type": object.httpMetadata?.contentType ?? "application/octet-stream",
    "Cache-Control": "public, max-age=31536000, immutable",
    ETag: object.httpEtag,
    // The type was read from the bytes at upload; browsers must not guess another.
    "X-Content-Type-Options": "nosniff",
  });
  return new Response(request.method === "HEAD" ? null : object.body, { headers });
}

/** Stores an image under its content hash and returns the address it is served at. */
export async function storeSiteImage(
  env: Env,
  siteId: string,
  bytes: Uint8Array<ArrayBuffer>,
  kind: { contentType: string; extension: string },
): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hash = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  const key = `media/sites/${siteId}/${hash}.${kind.extension}`;
  await env.UPLOADS.put(key, bytes, { httpMetadata: { contentType: kind.contentType } });
  return `/${key}`;
}

/**
 * An uploaded file for `purpose` checked by its bytes and size, then stored; its address, or the refusal in
 * words. The one path for every upload (logo, banner, page and newsletter images): a refused file is never stored.
 */
export async function acceptSiteImage(
  env: Env,
  siteId: string,
  file: File | undefined,
  purpose: ImagePurpose,
): Promise<{ ok: true; url: string } | { ok: false; message: string }> {
  const size = file?.size ?? 0;
  // Only the first bytes are read before the size is known to be within the limit.
  const bytes = file ? new Uint8Array(await (size > IMAGE_LIMITS[purpose].maxBytes ? file.slice(0, SIGNATURE_BYTES) : file).arrayBuffer()) : new Uint8Array();
  const checked = checkImage(bytes, size, purpose);
  if (!checked.ok) return checked;
  return { ok: true, url: await storeSiteImage(env, siteId, bytes, checked.kind) };
}
