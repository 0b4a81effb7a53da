/**
 * Images a club uploads (its site logo): what a file is, read from its first bytes rather than from the name
 * or type the browser claims, and the limits. SVG is refused on purpose: it can carry script, and a logo
 * served from the site's own origin must not.
 */

export const MAX_LOGO_BYTES = 512 * 1024;

export interface ImageKind {
  contentType: "image/png" | "image/jpeg" | "image/webp" | "image/gif";
  extension: "png" | "jpg" | "webp" | "gif";
}

export const IMAGE_MESSAGES = {
  missing: "Choose an image file to upload",
  tooLarge: "A logo is at most 512 KB",
  notImage: "A logo must be a PNG, JPEG, WebP or GIF image",
} as const;

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) => signature.every((b, i) => bytes[offset + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The image kind of these bytes, or null when they are none of the kinds we take. */
export function imageKindOf(bytes: Uint8Array): ImageKind | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { contentType: "image/png", extension: "png" };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { contentType: "image/jpeg", extension: "jpg" };
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return { contentType: "image/webp", extension: "webp" };
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return { contentType: "image/gif", extension: "gif" };
  return null;
}

/** The refusal for an uploaded logo of `size` bytes starting with `bytes`, or its kind. */
export function checkLogo(bytes: Uint8Array, size: number): { ok: true; kind: ImageKind } | { ok: false; message: string } {
  if (size === 0) return { ok: false, message: IMAGE_MESSAGES.missing };
  if (size > MAX_LOGO_BYTES) return { ok: false, message: IMAGE_MESSAGES.tooLarge };
  const kind = imageKindOf(bytes);
  return kind ? { ok: true, kind } : { ok: false, message: IMAGE_MESSAGES.notImage };
}

/** Where an uploaded site image is served: content-addressed, so it can be cached for good. */
export const MEDIA_PATH = /^\/media\/sites\/([0-9a-f-]{36})\/([0-9a-f]{64})\.(png|jpg|webp|gif)$/;
