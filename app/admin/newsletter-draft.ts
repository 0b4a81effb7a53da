/**
 * A newsletter as its editor holds it (issue 26): the blocks as typed, and the editor's own steps (add, move,
 * remove) that change the draft without saving. Shared by the page's server half and its component.
 */
import { editBlockList } from "../forms/block-list";
import type { PostedForm } from "../forms/posted-form.server";

export const BLOCK_TYPES = ["header", "text", "image", "button", "logo"] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];
export const BLOCK_LABELS: Record<BlockType, string> = { header: "Header", text: "Text", image: "Image", button: "Action button", logo: "Logo" };

/** A block as typed in the editor: every field as text, empty when not given. */
export interface DraftBlock {
  type: BlockType;
  text: string;
  image_url: string;
  url: string;
}

export interface NewsletterDraft {
  subject: string;
  blocks: DraftBlock[];
  members: boolean;
  registrations: string[];
  races: string[];
  /** Of the races' entrants: everyone entered, or the finishers only. */
  entrants: "entered" | "finished";
  /** Of those, only these courses' and categories' (none ticked: all). */
  courses: string[];
  categories: string[];
}

/** The draft as posted: blocks b0…bN in order, the audience's boxes. */
export function readDraft(posted: PostedForm): NewsletterDraft {
  const v = posted.values;
  const count = Math.min(Number(v.count) || 0, 50);
  const blocks: DraftBlock[] = [];
  for (let i = 0; i < count; i++) {
    const type = v[`b${i}.type`] as BlockType;
    if (!BLOCK_TYPES.includes(type)) continue;
    blocks.push({ type, text: v[`b${i}.text`] ?? "", image_url: v[`b${i}.image_url`] ?? "", url: v[`b${i}.url`] ?? "" });
  }
  const ticked = (prefix: string) =>
    Object.keys(v)
      .filter((key) => key.startsWith(prefix) && v[key] === "on")
      .map((key) => key.slice(prefix.length));
  const entrants = v.entrants === "finished" ? "finished" : "entered";
  return {
    subject: v.subject ?? "",
    blocks,
    members: v.members === "on",
    registrations: ticked("form:"),
    races: ticked("race:"),
    entrants,
    courses: ticked("course:"),
    categories: ticked("category:"),
  };
}

/** At most this many blocks (the entity's own limit). */
export const MAX_NEWSLETTER_BLOCKS = 50;

/** The editor's own steps: a changed draft, shown again without saving. */
export function editDraft(draft: NewsletterDraft, intent: string): NewsletterDraft | null {
  const blank = (type: string): DraftBlock => ({ type: type as BlockType, text: "", image_url: "", url: "" });
  const blocks = editBlockList(draft.blocks, intent, BLOCK_TYPES, blank, MAX_NEWSLETTER_BLOCKS);
  return blocks ? { ...draft, blocks } : null;
}
