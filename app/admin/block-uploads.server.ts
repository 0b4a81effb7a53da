/**
 * Images uploaded from a block editor (a home page's, a site page's, a newsletter's): each image block may carry a file
 * `b{i}.file`; it is checked and stored through the one upload path (workers/media.ts), and the block then
 * points at it. Done on every step of the editor, so a file chosen before "Add" or "Move up" is not lost.
 */
import { data } from "@remix-run/cloudflare";
import { acceptSiteImage } from "../../workers/media";
import type { PostedForm } from "../forms/posted-form.server";

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

export const blockDraftReply = <D>(draft: D, errors: Record<string, string> = {}, status = 200) => data({ draft, errors }, { status });

/**
 * The first part of a site block editor's action (its pages, its home page): the files chosen uploaded to the
 * site, then an editor step (add, move, remove) answered with the draft and nothing saved. `reply` when the
 * request is answered here (a step, or an upload refused), else the draft with its uploads, ready to save.
 */
export async function blockEditorStep<B extends { type: string; image_url: string }, D extends { blocks: B[] }>(
  env: Env,
  siteId: string,
  posted: PostedForm,
  draft: D,
  edit: (draft: D, intent: string) => D | null,
) {
  const uploaded = await uploadBlockImages(env, siteId, posted.files, draft.blocks);
  const next: D = { ...draft, blocks: uploaded.blocks };
  const refused = Object.keys(uploaded.errors).length > 0;
  const edited = edit(next, posted.intent);
  if (edited) return { reply: blockDraftReply(edited, uploaded.errors, refused ? 400 : 200) } as const;
  if (refused) return { reply: blockDraftReply(next, uploaded.errors, 400) } as const;
  return { draft: next } as const;
}
