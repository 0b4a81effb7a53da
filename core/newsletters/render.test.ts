import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { escapeHtml, renderNewsletter, safeLink, type NewsletterBlock } from "./render";

const LOOK = { clubName: "Harbour Runners", logoUrl: "https://harbour.example/media/logo.png", primary: "#0b6e4f" };
const UNSUBSCRIBE = "https://harbour.example/newsletters/unsubscribe?t=abc";

describe("a newsletter as mail", () => {
  it("renders every kind of block in order, in HTML and in plain text", () => {
    const blocks: NewsletterBlock[] = [
      { type: "logo" },
      { type: "header", text: "Spring Series" },
      { type: "text", text: "Entries are open.\n\nSee you at the start!" },
      { type: "image", image_url: "https://harbour.example/media/start.jpg", text: "The start", url: "https://harbour.example/events/spring" },
      { type: "button", text: "Register", url: "https://harbour.example/register/1" },
    ];
    const mail = renderNewsletter(blocks, LOOK, UNSUBSCRIBE);
    const order = ["logo.png", "Spring Series", "Entries are open.", "See you at the start!", "start.jpg", "Register"].map((part) => mail.html.indexOf(part));
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
    expect(mail.html).toContain('href="https://harbour.example/register/1" style="display:inline-block;background:#0b6e4f');
    expect(mail.html).toContain(`<a href="${escapeHtml(UNSUBSCRIBE)}"`);
    expect(mail.text).toBe(
      [
        "Harbour Runners",
        "Spring Series\n=============",
        "Entries are open.\n\nSee you at the start!",
        "[The start] https://harbour.example/events/spring",
        "Register: https://harbour.example/register/1",
        "--",
        "You receive this because of your membership or registration with Harbour Runners.",
        `Unsubscribe: ${UNSUBSCRIBE}`,
      ].join("\n\n"),
    );
  });

  it("drops links that are not http or https, and a logo without an image shows the club's name", () => {
    expect(safeLink("javascript:alert(1)")).toBeNull();
    expect(safeLink("data:text/html,hi")).toBeNull();
    expect(safeLink("/relative")).toBeNull();
    expect(safeLink("https://ok.example/a b")).toBe("https://ok.example/a%20b");
    const mail = renderNewsletter([{ type: "button", text: "Click", url: "javascript:alert(1)" }, { type: "logo" }], { ...LOOK, logoUrl: null }, UNSUBSCRIBE);
    expect(mail.html).not.toContain("javascript:");
    expect(mail.html).toContain(">Harbour Runners</strong>");
    expect(mail.text).not.toContain("Click");
  });

  it("never lets a block's text open a tag, whatever it holds", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.constantFrom<"header" | "text">("header", "text"), (text, type) => {
        const mail = renderNewsletter([{ type, text }], LOOK, UNSUBSCRIBE);
        const body = mail.html.slice(mail.html.indexOf('padding:24px 20px">'), mail.html.indexOf("</td></tr></table>"));
        // Only the renderer's own tags appear: a < from the text is always escaped.
        expect(body.replace(/<\/?(h1|p|br)\b[^>]*>/g, "")).not.toMatch(/</);
      }),
      fcParams(),
    );
  });
});
