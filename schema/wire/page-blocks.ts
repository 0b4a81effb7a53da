/**
 * A site page's body (issue 26): blocks in order (heading, text, image, button), stored as JSON text in
 * `site_pages.body`. A body that is not a JSON list is plain text (paragraphs with [label](link) links), so a
 * page written through the data API as text still shows. Decision 0053.
 */
import * as z from "zod";
import { MEDIA_PATH } from "../../core/sites/images";
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

const isWebAddress = (url: string, protocols: RegExp) => URL.canParse(url) && protocols.test(new URL(url).protocol.slice(0, -1));

/** An image shown on a site: one uploaded to it (/media/…, served by the site itself) or a web address. */
export const imageAddress = (protocols: RegExp, message: string) =>
  z
    .string()
    .trim()
    .max(2000, "At most 2000 characters")
    .refine((url) => MEDIA_PATH.test(url) || isWebAddress(url, protocols), message);

const imageBlock = z.strictObject({
  type: z.literal("image"),
  image_url: imageAddress(/^https$/, "An image's address starts with https://"),
  alt: z.string().trim().max(300, "At most 300 characters").default(""),
});

export const pageBlockSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("heading"), text: line }),
  z.strictObject({ type: z.literal("text"), text: z.string().trim().min(1, "Required").max(20_000, "At most 20000 characters") }),
  imageBlock,
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

/** The home page's most blocks: a front page, not a document. */
export const MAX_HOME_BLOCKS = 30;

/**
 * A site's home page (decision 0056): a page's blocks, and the two lists only a home page has, the site's
 * upcoming events and upcoming races, each under its own heading.
 */
export const homeBlockSchema = z.discriminatedUnion("type", [
  ...pageBlockSchema.options,
  z.strictObject({ type: z.literal("events"), text: line }),
  z.strictObject({ type: z.literal("races"), text: line }),
]);
export type HomeBlock = z.output<typeof homeBlockSchema>;
export const homeBlocksSchema = z.array(homeBlockSchema).max(MAX_HOME_BLOCKS, `A home page has at most ${MAX_HOME_BLOCKS} blocks`);
