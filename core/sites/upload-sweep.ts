/**
 * Which uploaded files of a site may be swept from R2 (decisions 0040 and 0056 left it for later; decision 0062):
 * those that nothing of the site refers to — its logo, home and page blocks, event banners, newsletters, sent
 * ones included since their mails point at them — and that are older than a grace period, so a file uploaded
 * for a form not saved yet is kept.
 */

/** A day: an upload made for a form still open on someone's screen is kept until long after it was left. */
export const UPLOAD_GRACE_MS = 24 * 60 * 60 * 1000;

/** An uploaded file's key as stored (`workers/media.ts`), wherever it is mentioned: a path, a whole address, JSON. */
const MENTION = /media\/sites\/([0-9a-f-]{36})\/([0-9a-f]{64})\.(png|jpg|webp|gif)/g;

/** The R2 keys of this site's uploads that these texts mention (config, page bodies, banners, newsletters' blocks). */
export function referencedUploads(texts: Iterable<string | null | undefined>, siteId: string): Set<string> {
  const keys = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    // A body written as JSON by hand may escape its slashes ("\/media\/…"); it still shows the file.
    for (const match of text.replaceAll("\\/", "/").matchAll(MENTION)) {
      if (match[1] === siteId) keys.add(match[0]);
    }
  }
  return keys;
}

export interface StoredUpload {
  key: string;
  /** When R2 stored it (ms); storing the same bytes again (an upload of the same file) renews it. */
  uploaded: number;
}

/**
 * The keys to delete: this site's uploads in the stored shape that nothing refers to and that are older than
 * the grace period. Anything else under the prefix (a key we never write) is left alone.
 */
export function unreferencedUploads(
  stored: readonly StoredUpload[],
  referenced: ReadonlySet<string>,
  siteId: string,
  now: number,
  graceMs: number = UPLOAD_GRACE_MS,
): string[] {
  const ours = new RegExp(`^media/sites/${siteId}/[0-9a-f]{64}\\.(png|jpg|webp|gif)$`);
  return stored.filter((file) => ours.test(file.key) && !referenced.has(file.key) && now - file.uploaded > graceMs).map((file) => file.key);
}
