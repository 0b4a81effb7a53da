import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { cardDay, renderCardMail, type CardMail } from "./card-mail";

const card: CardMail = {
  lang: "en",
  clubName: "Nordic Club",
  kind: "member_card",
  holderName: "Anne Skier",
  season: "2026–27",
  validUntil: "2027-08-31",
  cardUrl: "https://nordic.example.com/passes/0b8e3c1e-6f6a-4c1a-9d3b-2a1f5e7c9d10?t=p1.x.y",
};

describe("the card mail", () => {
  it("says what the card is and links it, in English", () => {
    const mail = renderCardMail(card);
    expect(mail.subject).toBe("Your member card from Nordic Club");
    expect(mail.text).toContain("Hello Anne Skier,");
    expect(mail.text).toContain("Season: 2026–27");
    expect(mail.text).toContain("Valid until: August 31, 2027");
    expect(mail.text).toContain(`Open your card: ${card.cardUrl}`);
    expect(mail.html).toContain(`href="${card.cardUrl}"`);
  });

  it("is written in French for a French holder, dates too", () => {
    const mail = renderCardMail({ ...card, lang: "fr", kind: "pass" });
    expect(mail.subject).toBe("Votre passe de saison de Nordic Club");
    expect(mail.text).toContain("Bonjour Anne Skier,");
    expect(mail.text).toContain("Valide jusqu’au : 31 août 2027");
    expect(mail.text).toContain(`Ouvrir votre carte : ${card.cardUrl}`);
  });

  it("leaves out what the card does not have and any link that is not http(s)", () => {
    const mail = renderCardMail({ ...card, season: null, validUntil: null, cardUrl: "javascript:alert(1)" });
    expect(mail.text).not.toContain("Season");
    expect(mail.text).not.toContain("Valid until");
    expect(mail.html).not.toContain("javascript:");
  });

  it("writes a day as the language does, whatever the zone", () => {
    expect(cardDay("2027-01-01", "en")).toBe("January 1, 2027");
    expect(cardDay("2027-01-01", "fr")).toBe("1 janvier 2027");
    expect(cardDay("soon", "en")).toBe("soon");
  });

  it("never lets a name or club into the HTML unescaped", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.constantFrom("en" as const, "fr" as const), (holderName, clubName, lang) => {
        const { html } = renderCardMail({ ...card, holderName, clubName, lang });
        const tags = html.match(/<[^>]*>/g) ?? [];
        expect(tags.every((t) => /^<\/?(p|a|strong|br)\b/.test(t))).toBe(true);
      }),
      fcParams(),
    );
  });
});
