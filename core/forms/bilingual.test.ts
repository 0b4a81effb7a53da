import { describe, expect, it } from "vitest";
import { formatBilingual, hasLanguageTags, labelIn, splitLabel } from "./bilingual";

describe("labelIn", () => {
  const label = "[en]Date of birth[fr]Date de naissance";

  it("returns the part for the language", () => {
    expect(labelIn(label, "en")).toBe("Date of birth");
    expect(labelIn(label, "fr")).toBe("Date de naissance");
    expect(labelIn("[FR]Nom[EN]Name", "en")).toBe("Name");
  });

  it("falls back to English, then the untagged text", () => {
    expect(labelIn("[en]Club", "fr")).toBe("Club");
    expect(labelIn("Club [fr]", "fr")).toBe("Club");
    expect(labelIn("[fr]Équipe", "en")).toBe("Équipe");
  });

  it("returns untagged text whole", () => {
    expect(labelIn("T-shirt size", "fr")).toBe("T-shirt size");
    expect(labelIn("  spaced  ", "en")).toBe("  spaced  ");
  });
});

describe("splitLabel and formatBilingual", () => {
  it("round-trips", () => {
    expect(splitLabel(formatBilingual("Name", "Nom"))).toEqual({ untagged: "", en: "Name", fr: "Nom" });
    expect(formatBilingual("Name")).toBe("Name");
    expect(hasLanguageTags("[en]x")).toBe(true);
    expect(hasLanguageTags("[de]x")).toBe(false);
  });
});
