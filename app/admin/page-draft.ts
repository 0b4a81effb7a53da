/**
 * A site page as its editor holds it (issue 26): the blocks as typed and the editor's own steps (add, move,
 * remove) that change the draft without saving. Shared by the page's server half and its component.
 */
import type { PageBlock } from "../../schema/wire/page-blocks";
import { editBlockList } from "../forms/block-list";
import type { PostedForm } from "../forms/posted-form.server";

export const PAGE_BLOCK_TYPES = ["heading", "text", "image", "button"] as const;
export type PageBlockType = (typeof PAGE_BLOCK_TYPES)[number];
export const PAGE_BLOCK_LABELS: Record<PageBlockType, string> = { heading: "Heading", text: "Text", image: "Image", button: "Button" };

/** A block as typed: every field as text, empty when not given. */
export interface DraftPageBlock {
  type: PageBlockType;
  text: string;
  image_url: string;
  alt: string;
  url: string;
}

export interface PageDraft {
  title: string;
  path: string;
  blocks: DraftPageBlock[];
}

export const MAX_DRAFT_BLOCKS = 60;

/** A site block editor's blocks as posted (its pages', its home page's): b0…bN in order, of the given kinds only. */
export function readSiteBlocks<T extends string>(values: Readonly<Record<string, string>>, types: readonly T[], max: number) {
  const count = Math.min(Number(values.count) || 0, max);
  const blocks: { type: T; text: string; image_url: string; alt: string; url: string }[] = [];
  for (let i = 0; i < count; i++) {
    const type = values[`b${i}.type`] as T;
    if (!types.includes(type)) continue;
    const field = (name: string) => values[`b${i}.${name}`] ?? "";
    blocks.push({ type, text: field("text"), image_url: field("image_url"), alt: field("alt"), url: field("url") });
  }
  return blocks;
}

/** The draft as posted: blocks b0…bN in order. */
export function readPageDraft(posted: PostedForm): PageDraft {
  const v = posted.values;
  return { title: v.title ?? "", path: v.path ?? "", blocks: readSiteBlocks(v, PAGE_BLOCK_TYPES, MAX_DRAFT_BLOCKS) };
}

/** The editor's own steps: a changed draft, shown again without saving; null for any other intent. */
export function editPageDraft(draft: PageDraft, intent: string): PageDraft | null {
  const blank = (type: string): DraftPageBlock => ({ type: type as PageBlockType, text: "", image_url: "", alt: "", url: "" });
  const blocks = editBlockList(draft.blocks, intent, PAGE_BLOCK_TYPES, blank, MAX_DRAFT_BLOCKS);
  return blocks ? { ...draft, blocks } : null;
}

/** The blocks as the page stores them (only each kind's fields), as its body's JSON. */
export function bodyOf(blocks: readonly DraftPageBlock[]): string {
  return JSON.stringify(
    blocks.map((b) => {
      switch (b.type) {
        case "heading":
        case "text":
          return { type: b.type, text: b.text };
        case "image":
          return { type: "image", image_url: b.image_url.trim(), alt: b.alt.trim() };
        case "button":
          return { type: "button", text: b.text, url: b.url.trim() };
      }
    }),
  );
}

/** A stored body's blocks as the editor shows them; plain text becomes one text block. */
export function draftBlocksOf(body: { kind: "blocks"; blocks: PageBlock[] } | { kind: "text"; text: string }): DraftPageBlock[] {
  const empty = { text: "", image_url: "", alt: "", url: "" };
  if (body.kind === "text") return body.text.trim() ? [{ ...empty, type: "text", text: body.text }] : [];
  return body.blocks.map((b) => ({ ...empty, ...b }));
}
