/**
 * A site's home page as its editor holds it (decision 0056): a page's blocks plus the upcoming events and
 * upcoming races lists, and the editor's own steps (add, move, remove) that change the draft without saving.
 */
import type { HomeBlock } from "../../schema/wire/page-blocks";
import { MAX_HOME_BLOCKS } from "../../schema/wire/page-blocks";
import { editBlockList } from "../forms/block-list";
import { readSiteBlocks } from "./page-draft";
import type { PostedForm } from "../forms/posted-form.server";

export const HOME_BLOCK_TYPES = ["heading", "text", "image", "button", "events", "races"] as const;
export type HomeBlockType = (typeof HOME_BLOCK_TYPES)[number];
export const HOME_BLOCK_LABELS: Record<HomeBlockType, string> = {
  heading: "Heading",
  text: "Text",
  image: "Image",
  button: "Button",
  events: "Upcoming events",
  races: "Upcoming races",
};
/** A new list block's heading, which the club may change. */
const LIST_HEADINGS: Partial<Record<HomeBlockType, string>> = { events: "Upcoming events", races: "Upcoming races" };

export interface DraftHomeBlock {
  type: HomeBlockType;
  text: string;
  image_url: string;
  alt: string;
  url: string;
}

export interface HomeDraft {
  blocks: DraftHomeBlock[];
}

/** The draft as posted: blocks b0…bN in order. */
export function readHomeDraft(posted: PostedForm): HomeDraft {
  return { blocks: readSiteBlocks(posted.values, HOME_BLOCK_TYPES, MAX_HOME_BLOCKS) };
}

/** The editor's own steps: a changed draft, shown again without saving; null for any other intent. */
export function editHomeDraft(draft: HomeDraft, intent: string): HomeDraft | null {
  const blank = (type: string): DraftHomeBlock => ({
    type: type as HomeBlockType,
    text: LIST_HEADINGS[type as HomeBlockType] ?? "",
    image_url: "",
    alt: "",
    url: "",
  });
  const blocks = editBlockList(draft.blocks, intent, HOME_BLOCK_TYPES, blank, MAX_HOME_BLOCKS);
  return blocks ? { blocks } : null;
}

/** The blocks as the site's config stores them (only each kind's fields). */
export function homeBlocksOf(blocks: readonly DraftHomeBlock[]): unknown[] {
  return blocks.map((b) => {
    switch (b.type) {
      case "heading":
      case "text":
      case "events":
      case "races":
        return { type: b.type, text: b.text };
      case "image":
        return { type: "image", image_url: b.image_url.trim(), alt: b.alt.trim() };
      case "button":
        return { type: "button", text: b.text, url: b.url.trim() };
    }
  });
}

/** Stored blocks as the editor shows them. */
export function homeDraftOf(blocks: readonly HomeBlock[]): HomeDraft {
  const empty = { text: "", image_url: "", alt: "", url: "" };
  return { blocks: blocks.map((b) => ({ ...empty, ...b })) };
}
