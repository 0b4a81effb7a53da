import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { newElement } from "../forms/model";
import { isRaceChoiceField, linkedRaceIds, placeOf, placesOf, raceOptionLinksSchema, rememberedPlaces, samePlace, type FormRaceLinks } from "./race-links";

const links: FormRaceLinks = {
  place: { race: "r-main", course: "c1", start_group: null },
  optionField: "distance",
  optionLinks: [
    { option: "5k", race: "r-5", course: null, start_group: "g1" },
    { option: "21k", race: "r-main", course: "c21", start_group: null },
  ],
};

describe("the race a person is entered in", () => {
  it("is their option's race, else the form's", () => {
    expect(placeOf(links, { distance: { v: "5k", p: 0 } })).toEqual({ race: "r-5", course: null, start_group: "g1" });
    expect(placeOf(links, { distance: { v: "21k", p: 0 } })).toEqual({ race: "r-main", course: "c21", start_group: null });
    expect(placeOf(links, { distance: { v: "10k", p: 0 } })).toEqual(links.place);
    expect(placeOf(links, {})).toEqual(links.place);
    expect(placeOf({ ...links, place: null }, {})).toBeNull();
    expect(placeOf({ ...links, optionField: null }, { distance: { v: "5k", p: 0 } })).toEqual(links.place);
  });

  it("is always one the form links (property)", () => {
    fc.assert(
      fc.property(fc.option(fc.constantFrom("5k", "10k", "21k", "")), (chosen) => {
        const place = placeOf(links, chosen === null ? {} : { distance: { v: chosen, p: 0 } });
        return (
          place !== null && linkedRaceIds(links).includes(place.race) && (samePlace(place, links.place) || links.optionLinks.some((l) => samePlace(l, place)))
        );
      }),
      fcParams(),
    );
  });

  it("for a multi-choice field, is the race of each option chosen, one place per race (decision 0061)", () => {
    const events: FormRaceLinks = {
      place: null,
      optionField: "events",
      optionLinks: [
        { option: "classic", race: "r-classic", course: "c1", start_group: null },
        { option: "skate", race: "r-skate", course: null, start_group: null },
        { option: "classic-long", race: "r-classic", course: "c2", start_group: null },
      ],
    };
    expect(placesOf(events, { events: { v: ["classic", "skate"], p: 0 } }).map((p) => p.race)).toEqual(["r-classic", "r-skate"]);
    // Two options of one race: the first chosen says where the racer starts.
    expect(placesOf(events, { events: { v: ["classic-long", "classic"], p: 0 } })).toEqual([{ race: "r-classic", course: "c2", start_group: null }]);
    expect(placesOf(events, { events: { v: [], p: 0 } })).toEqual([]);
    expect(placesOf({ ...events, place: links.place }, { events: { v: ["nothing"], p: 0 } })).toEqual([links.place]);
    expect(isRaceChoiceField(newElement("m", "multioption", { options_list: [{ id: "a", display: "A" }] }))).toBe(true);
    expect(isRaceChoiceField(newElement("t", "text"))).toBe(false);
    expect(rememberedPlaces(links.place)).toEqual([links.place]);
    expect(rememberedPlaces([links.place!, links.place!])).toHaveLength(2);
    expect(rememberedPlaces(null)).toEqual([]);
  });

  it("names each race once, and only races the form links (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("5k", "10k", "21k", "")), (chosen) => {
        const places = placesOf(links, { distance: { v: chosen, p: 0 } });
        const races = places.map((p) => p.race);
        return new Set(races).size === races.length && races.every((race) => linkedRaceIds(links).includes(race));
      }),
      fcParams(),
    );
  });

  it("lists the linked races once each, the form's first", () => {
    expect(linkedRaceIds(links)).toEqual(["r-main", "r-5"]);
    expect(linkedRaceIds({ place: null, optionField: null, optionLinks: links.optionLinks })).toEqual([]);
  });

  it("takes option links once each, blanks as none", () => {
    expect(raceOptionLinksSchema.safeParse([{ option: "a", race: "r", course: "", start_group: null }]).data).toEqual([
      { option: "a", race: "r", course: null, start_group: null },
    ]);
    expect(
      raceOptionLinksSchema.safeParse([
        { option: "a", race: "r" },
        { option: "a", race: "s" },
      ]).success,
    ).toBe(false);
    expect(raceOptionLinksSchema.safeParse([{ option: "a", race: "r", extra: 1 }]).success).toBe(false);
  });
});
