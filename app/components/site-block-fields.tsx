import { Field, TextAreaField, TextField } from "./form-kit";

/** A site block as its editors hold it (a site page's or the home page's): every field as text. */
export interface SiteDraftBlock {
  type: "heading" | "text" | "image" | "button" | "events" | "races";
  text: string;
  image_url: string;
  alt: string;
  url: string;
}

/**
 * One block's inputs in a site's block editors (its pages and its home page, decisions 0053 and 0056), named
 * `b{index}.{field}` as `readPageDraft`/`readHomeDraft` read them. An image block has an upload button beside
 * its web address; the form must be multipart, and its action uploads the file on any button (block-uploads.server.ts).
 */
export function SiteBlockFields({ block, index, errors }: { block: SiteDraftBlock; index: number; errors: Record<string, string> }) {
  const name = (field: string) => `b${index}.${field}`;
  const error = (field: string) => errors[name(field)];
  return (
    <>
      <input type="hidden" name={name("type")} value={block.type} />
      {block.type === "heading" ? <TextField name={name("text")} label="Heading" defaultValue={block.text} error={error("text")} maxLength={200} /> : null}
      {block.type === "events" || block.type === "races" ? (
        <TextField name={name("text")} label="Heading above the list" defaultValue={block.text} error={error("text")} maxLength={200} />
      ) : null}
      {block.type === "text" ? (
        <TextAreaField
          name={name("text")}
          label="Text"
          hint="A blank line starts a new paragraph; write a link as [its words](/events) or [its words](https://…)."
          defaultValue={block.text}
          error={error("text")}
          rows={6}
        />
      ) : null}
      {block.type === "image" ? (
        <>
          {block.image_url ? <img src={block.image_url} alt="" style={{ maxWidth: "16rem", height: "auto" }} /> : null}
          <Field id={name("file")} label="Upload an image" hint="PNG, JPEG, WebP or GIF, at most 2 MB" error={error("image_url")}>
            {(describedBy) => (
              <input id={name("file")} name={name("file")} type="file" accept="image/png,image/jpeg,image/webp,image/gif" aria-describedby={describedBy} />
            )}
          </Field>
          <TextField name={name("image_url")} label="Or its web address (https://…)" defaultValue={block.image_url} />
          <TextField name={name("alt")} label="Description for readers who cannot see it" defaultValue={block.alt} error={error("alt")} />
        </>
      ) : null}
      {block.type === "button" ? (
        <>
          <TextField name={name("text")} label="Button text" defaultValue={block.text} error={error("text")} maxLength={200} />
          <TextField name={name("url")} label="Goes to (/a-page or https://…)" defaultValue={block.url} error={error("url")} />
        </>
      ) : null}
    </>
  );
}

/** The editor form's key: a new one per reply, so its inputs show the draft the server answered with (a block added, moved, or its image uploaded). */
export const blockFormKey = (blocks: readonly Pick<SiteDraftBlock, "type" | "image_url">[], replied: boolean) =>
  JSON.stringify(blocks.map((b) => b.type + b.image_url)) + (replied ? "r" : "l");
