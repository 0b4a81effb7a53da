/**
 * Images a club uploads (its site logo, event banners, home page and newsletter images): what a file is, read from its first bytes rather than from the name
 * or type the browser claims, and the limits. SVG is refused on purpose: it can carry script, and a logo
 * served from the site's own origin must not.
 */

export const MAX_LOGO_BYTES = 512 * 1024;
/** A banner or a picture in a page or newsletter is wider than a logo: a phone photo saved for the web fits (decision 0056). */
export const MAX_PICTURE_BYTES = 2 * 1024 * 1024;

/** What an upload is for: its limit and the word its messages use. */
export type ImagePurpose = "logo" | "banner" | "image";

export interface ImageKind {
  contentType: "image/png" | "image/jpeg" | "image/webp" | "image/gif";
  extension: "png" | "jpg" | "webp" | "gif";
}

const KINDS = "a PNG, JPEG, WebP or GIF image";

export const IMAGE_MESSAGES = {
  missing: "Choose an image file to upload",
  tooLarge: "A logo is at most 512 KB",
  notImage: `A logo must be ${KINDS}`,
} as const;

/** Each purpose's size limit and its words; a logo keeps decision 0040's. */
export const IMAGE_LIMITS: Readonly<Record<ImagePurpose, { maxBytes: number; tooLarge: string; notImage: string }>> = {
  logo: { maxBytes: MAX_LOGO_BYTES, tooLarge: IMAGE_MESSAGES.tooLarge, notImage: IMAGE_MESSAGES.notImage },
  banner: { maxBytes: MAX_PICTURE_BYTES, tooLarge: "A banner is at most 2 MB", notImage: `A banner must be ${KINDS}` },
  image: { maxBytes: MAX_PICTURE_BYTES, tooLarge: "An image is at most 2 MB", notImage: `An image must be ${KINDS}` },
};

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

/** The bytes a check needs before the size is known to be within the limit: the longest signature. */
export const SIGNATURE_BYTES = 16;

/** The refusal for an uploaded image of `size` bytes starting with `bytes` for `purpose`, or its kind. */
export function checkImage(bytes: Uint8Array, size: number, purpose: ImagePurpose): { ok: true; kind: ImageKind } | { ok: false; message: string } {
  const limit = IMAGE_LIMITS[purpose];
  if (size === 0) return { ok: false, message: IMAGE_MESSAGES.missing };
  if (size > limit.maxBytes) return { ok: false, message: limit.tooLarge };
  const kind = imageKindOf(bytes);
  return kind ? { ok: true, kind } : { ok: false, message: limit.notImage };
}

/** The refusal for an uploaded logo, or its kind. */
export const checkLogo = (bytes: Uint8Array, size: number) => checkImage(bytes, size, "logo");

/** Where an uploaded site image is served: content-addressed, so it can be cached for good. */
export const MEDIA_PATH = /^\/media\/sites\/([0-9a-f-]{36})\/([0-9a-f]{64})\.(png|jpg|webp|gif)$/;

/** Whether `url` is an uploaded image of this site (an image of another site would not be served on this one). */
export const isSiteMedia = (url: string, siteId: string) => MEDIA_PATH.exec(url)?.[1] === siteId;
