/**
 * A site page's body (issue 26): blocks in order (heading, text, image, button), stored as JSON text in
 * `site_pages.body`. A body that is not a JSON list is plain text (paragraphs with [label](link) links), so a
 * page written through the data API as text still shows. Decision 0053.
 */
import * as z from "zod";
import { siteLinkProblem } from "../../core/sites/site-links";

export const MAX_PAGE_BLOCKS = 60;

const line = z.string().trim().min(1, "Required").max(200, "At most 200 characters");
const siteLink = z
  .string()
  .trim()
  .superRefine((href, ctx) => {
    const problem = siteLinkProblem(href);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const pageBlockSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("heading"), text: line }),
  z.strictObject({ type: z.literal("text"), text: z.string().trim().min(1, "Required").max(20_000, "At most 20000 characters") }),
  z.strictObject({
    type: z.literal("image"),
    image_url: z.url({ protocol: /^https$/, error: "An image's address starts with https://" }),
    alt: z.string().trim().max(300, "At most 300 characters").default(""),
  }),
  z.strictObject({ type: z.literal("button"), text: line, url: siteLink }),
]);

export type PageBlock = z.output<typeof pageBlockSchema>;
export const pageBlocksSchema = z.array(pageBlockSchema).max(MAX_PAGE_BLOCKS, `A page has at most ${MAX_PAGE_BLOCKS} blocks`);

export type PageBody = { kind: "blocks"; blocks: PageBlock[] } | { kind: "text"; text: string };

/** Whether a stored body is meant as blocks (a JSON list) rather than plain text. */
export const isBlockBody = (body: string) => body.trimStart().startsWith("[");

/** A body's problems by block path ("2.url"), or null; plain text has none. */
export function pageBodyProblems(body: string): Record<string, string> | null {
  if (!isBlockBody(body)) return null;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { "": "The page's blocks are not valid JSON" };
  }
  const parsed = pageBlocksSchema.safeParse(json);
  if (parsed.success) return null;
  const found: Record<string, string> = {};
  for (const issue of parsed.error.issues) found[issue.path.join(".")] ??= issue.message;
  return found;
}

/** A stored body as the page shows it; blocks that no longer parse show nothing rather than failing the page. */
export function readPageBody(body: string): PageBody {
  if (!isBlockBody(body)) return { kind: "text", text: body };
  try {
    const parsed = pageBlocksSchema.safeParse(JSON.parse(body));
    return { kind: "blocks", blocks: parsed.success ? parsed.data : [] };
  } catch {
    return { kind: "blocks", blocks: [] };
  }
}
