/**
 * Images uploaded from a block editor (a home page's, a newsletter's): each image block may carry a file
 * `b{i}.file`; it is checked and stored through the one upload path (workers/media.ts), and the block then
 * points at it. Done on every step of the editor, so a file chosen before "Add" or "Move up" is not lost.
 */
import { acceptSiteImage } from "../../workers/media";

/** The blocks with their uploaded images' addresses (`address` turns a stored path into what the block keeps), and the refusals by block. */
export async function uploadBlockImages<B extends { type: string; image_url: string }>(
  env: Env,
  siteId: string | null,
  files: Readonly<Record<string, File>>,
  blocks: readonly B[],
  address: (path: string) => string = (path) => path,
): Promise<{ blocks: B[]; errors: Record<string, string> }> {
  const errors: Record<string, string> = {};
  const next = [...blocks];
  for (const [i, block] of blocks.entries()) {
    const file = files[`b${i}.file`];
    // A form's empty file input still posts a nameless, empty file: nothing was chosen.
    if (!file || (file.size === 0 && file.name === "") || block.type !== "image") continue;
    if (!siteId) {
      errors[`b${i}.image_url`] = "This club has no site to keep images on";
      continue;
    }
    const uploaded = await acceptSiteImage(env, siteId, file, "image");
    if (uploaded.ok) next[i] = { ...block, image_url: address(uploaded.url) };
    else errors[`b${i}.image_url`] = uploaded.message;
  }
  return { blocks: next, errors };
}
