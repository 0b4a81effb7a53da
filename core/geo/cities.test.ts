import { describe, expect, it } from "vitest";
import { cityInfoFromRow, foldName } from "./cities";

describe("foldName", () => {
  it("lowercases and drops accents", () => {
    expect(foldName("Montréal")).toBe("montreal");
    expect(foldName("Québec")).toBe("quebec");
    expect(foldName("São Paulo")).toBe("sao paulo");
    expect(foldName("Zürich")).toBe("zurich");
    expect(foldName("İzmir")).toBe("izmir");
  });

  it("folds Latin letters that have no decomposition", () => {
    expect(foldName("Łódź")).toBe("lodz");
    expect(foldName("Tromsø")).toBe("tromso");
    expect(foldName("Großefehn")).toBe("grossefehn");
    expect(foldName("Diyarbakır")).toBe("diyarbakir");
    expect(foldName("Hafnarfjörður")).toBe("hafnarfjordur");
  });

  it("joins at apostrophes and separates words at other punctuation", () => {
    expect(foldName("St. John's")).toBe("st johns");
    expect(foldName("Coeur d’Alene")).toBe("coeur dalene");
    expect(foldName("Saint-Jean-sur-Richelieu")).toBe("saint jean sur richelieu");
    expect(foldName("  Winston–Salem (NC) ")).toBe("winston salem nc");
  });

  it("keeps digits and drops other scripts", () => {
    expect(foldName("Colonia 18 de Marzo")).toBe("colonia 18 de marzo");
    expect(foldName("Бережани")).toBe("");
  });

  it("is idempotent", () => {
    for (const name of ["Montréal", "St. John's", "Łódź", "Winston–Salem"]) expect(foldName(foldName(name))).toBe(foldName(name));
  });
});

describe("cityInfoFromRow", () => {
  it("maps a cities row to the data API fields", () => {
    const row = {
      geoname: 6094817,
      name: "Ottawa",
      asciiName: "ottawa",
      countryIso: "CA",
      provinceIso: "ON",
      latitude: 45.41117,
      longitude: -75.69812,
      timezone: "America/Toronto",
      population: 812129,
    };
    expect(cityInfoFromRow(row)).toEqual({
      city_name: "Ottawa",
      timezone: "America/Toronto",
      geoname: 6094817,
      latitude: 45.41117,
      longitude: -75.69812,
      province_iso: "ON",
      country_iso: "CA",
    });
  });

  it("keeps a missing province as null", () => {
    const info = cityInfoFromRow({
      geoname: 2988507,
      name: "Paris",
      countryIso: "FR",
      provinceIso: null,
      latitude: 48.85341,
      longitude: 2.3488,
      timezone: "Europe/Paris",
    });
    expect(info.province_iso).toBeNull();
  });
});
