import { describe, expect, it } from "vitest";
import { capitalised, countOfPeople, peopleLabelParts, peopleLabelsIn, storedPeopleLabels } from "./people-labels";

describe("people labels", () => {
  it("say person and people, or personne and personnes, when the form sets none", () => {
    expect(peopleLabelsIn({}, "en")).toEqual({ singular: "person", plural: "people" });
    expect(peopleLabelsIn(null, "fr")).toEqual({ singular: "personne", plural: "personnes" });
  });

  it("use the form's words in the registrant's language, falling back to English", () => {
    const stored = { singular: "[en]racer[fr]coureur", plural: "racers" };
    expect(peopleLabelsIn(stored, "en")).toEqual({ singular: "racer", plural: "racers" });
    expect(peopleLabelsIn(stored, "fr")).toEqual({ singular: "coureur", plural: "racers" });
    // A French word alone stays on the French pages.
    expect(peopleLabelsIn(storedPeopleLabels({ singular: { en: "", fr: "coureur" }, plural: { en: "", fr: "" } }), "en")).toEqual({
      singular: "person",
      plural: "people",
    });
  });

  it("count and capitalise", () => {
    const labels = { singular: "skater", plural: "skaters" };
    expect(countOfPeople(1, labels)).toBe("1 skater");
    expect(countOfPeople(3, labels)).toBe("3 skaters");
    expect(capitalised("équipe")).toBe("Équipe");
  });

  it("store only what was typed, with French in tags, and read it back into the inputs", () => {
    const stored = storedPeopleLabels({ singular: { en: " racer ", fr: "coureur" }, plural: { en: "", fr: "" } });
    expect(stored).toEqual({ singular: "[en]racer[fr]coureur" });
    expect(peopleLabelParts(stored, "singular")).toEqual({ en: "racer", fr: "coureur" });
    expect(peopleLabelParts(stored, "plural")).toEqual({ en: "", fr: "" });
    expect(peopleLabelParts({ plural: "racers" }, "plural")).toEqual({ en: "racers", fr: "" });
  });
});
