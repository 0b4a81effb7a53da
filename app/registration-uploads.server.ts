/**
 * Image uploader fields (vaccine record, headshot): a posted file goes to R2 under a key of our own, and
 * the form value is that key. Only images, at most 5 MB each, are taken.
 */
import type { StoredValue } from "../core/forms/model";
import type { PublicForm } from "./registration-public.server";

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
const EXTENSIONS: Record<string, string> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "image/gif": "gif", "image/heic": "heic" };

export type UploadResult = { ok: true; keys: Record<string, string> } | { ok: false; errors: Record<string, string> };

export async function storeUploads(
  bucket: R2Bucket,
  form: Pick<PublicForm, "elements" | "registration">,
  formData: FormData,
  saved: Record<string, StoredValue> = {},
): Promise<UploadResult> {
  const keys: Record<string, string> = {};
  const errors: Record<string, string> = {};
  for (const element of form.elements.filter((e) => e.type === "image")) {
    const file = formData.get(element.id);
    if (!(file instanceof File) || file.size === 0) {
      // No new file: keep what the person uploaded before.
      const before = saved[element.id]?.v;
      keys[element.id] = typeof before === "string" ? before : "";
      continue;
    }
    const extension = EXTENSIONS[file.type];
    if (!extension) errors[element.id] = "Upload a photo (JPEG, PNG, WebP, GIF or HEIC)";
    else if (file.size > MAX_UPLOAD_BYTES) errors[element.id] = "The photo must be 5 MB or smaller";
    else {
      const key = `uploads/${form.registration.id}/${crypto.randomUUID()}.${extension}`;
      await bucket.put(key, await file.arrayBuffer(), { httpMetadata: { contentType: file.type } });
      keys[element.id] = key;
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, keys };
}
