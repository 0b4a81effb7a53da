/**
 * A newsletter as mail (issue 26): its blocks (spec: header, image, text, action button, logo) in order, as
 * HTML for mail programs and as plain text beside it. Mail programs ignore style sheets and scripts, so the
 * HTML is one table with inline styles; every text is escaped and every link must be http or https.
 */

/** One block of a newsletter's body (the same shape the entity stores). */
export type NewsletterBlock =
  | { type: "header" | "text"; text: string }
  | { type: "image"; image_url: string; url?: string; text?: string }
  | { type: "button"; text: string; url: string }
  | { type: "logo"; image_url?: string; url?: string };

export interface NewsletterLook {
  clubName: string;
  /** The club's logo, used by a logo block that names no image of its own. */
  logoUrl: string | null;
  /** The site's primary colour, #rrggbb, for the button and the header rule. */
  primary: string;
}

export interface RenderedNewsletter {
  html: string;
  text: string;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** An absolute http(s) address, or null: a javascript: or data: link never reaches a member's mail. */
export function safeLink(url: string | undefined | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

const COLOUR = /^#[0-9a-f]{6}$/i;
const FONT = "font-family:Arial,Helvetica,sans-serif;color:#111827";

function paragraphs(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => `<p style="margin:0 0 12px;${FONT};font-size:16px;line-height:1.5">${escapeHtml(p).replace(/\n/g, "<br>")}</p>`)
    .join("");
}

function blockHtml(block: NewsletterBlock, look: NewsletterLook, primary: string): string {
  switch (block.type) {
    case "header":
      return `<h1 style="margin:0 0 12px;${FONT};font-size:24px;line-height:1.3;border-bottom:3px solid ${primary};padding-bottom:6px">${escapeHtml(block.text)}</h1>`;
    case "text":
      return paragraphs(block.text);
    case "image": {
      const src = safeLink(block.image_url);
      if (!src) return "";
      const image = `<img src="${escapeHtml(src)}" alt="${escapeHtml(block.text ?? "")}" width="560" style="display:block;max-width:100%;height:auto;border:0;margin:0 0 12px">`;
      const link = safeLink(block.url);
      return link ? `<a href="${escapeHtml(link)}">${image}</a>` : image;
    }
    case "button": {
      const link = safeLink(block.url);
      if (!link) return "";
      return `<p style="margin:16px 0"><a href="${escapeHtml(link)}" style="display:inline-block;background:${primary};color:#ffffff;${"font-family:Arial,Helvetica,sans-serif"};font-size:16px;font-weight:bold;text-decoration:none;padding:12px 20px;border-radius:6px">${escapeHtml(block.text)}</a></p>`;
    }
    case "logo": {
      const src = safeLink(block.image_url ?? look.logoUrl);
      const mark = src
        ? `<img src="${escapeHtml(src)}" alt="${escapeHtml(look.clubName)}" height="64" style="display:block;height:64px;width:auto;border:0">`
        : `<strong style="${FONT};font-size:20px">${escapeHtml(look.clubName)}</strong>`;
      const link = safeLink(block.url);
      return `<div style="margin:0 0 16px">${link ? `<a href="${escapeHtml(link)}">${mark}</a>` : mark}</div>`;
    }
  }
}

function blockText(block: NewsletterBlock, look: NewsletterLook): string {
  switch (block.type) {
    case "header":
      return `${block.text}\n${"=".repeat(Math.min(block.text.length, 60))}`;
    case "text":
      return block.text.trim();
    case "image": {
      const link = safeLink(block.url);
      return [block.text ? `[${block.text}]` : "", link ?? ""].filter(Boolean).join(" ");
    }
    case "button": {
      const link = safeLink(block.url);
      return link ? `${block.text}: ${link}` : "";
    }
    case "logo":
      return look.clubName;
  }
}

/** The newsletter's mail: the blocks, then who sent it and how to stop receiving the club's newsletters. */
export function renderNewsletter(blocks: readonly NewsletterBlock[], look: NewsletterLook, unsubscribeUrl: string): RenderedNewsletter {
  const primary = COLOUR.test(look.primary) ? look.primary : "#1e3a8a";
  const body = blocks.map((block) => blockHtml(block, look, primary)).join("\n");
  const footer = `You receive this because of your membership or registration with ${look.clubName}.`;
  const unsubscribe = safeLink(unsubscribeUrl);
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"></head>
<body style="margin:0;padding:0;background:#f3f4f6">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;background:#ffffff;border-radius:8px"><tr><td style="padding:24px 20px">
${body}
</td></tr></table>
<p style="${FONT};font-size:12px;color:#4b5563;margin:16px 0 0">${escapeHtml(footer)}${unsubscribe ? ` <a href="${escapeHtml(unsubscribe)}" style="color:#4b5563">Unsubscribe</a>` : ""}</p>
</td></tr></table>
</body></html>`;
  const text = [...blocks.map((block) => blockText(block, look)).filter((part) => part !== ""), "--", footer, unsubscribe ? `Unsubscribe: ${unsubscribe}` : ""]
    .filter((part) => part !== "")
    .join("\n\n");
  return { html, text };
}
