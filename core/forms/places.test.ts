import { describe, expect, it } from "vitest";
import { COUNTRIES, findCountry } from "./countries";
import { countryField, provinceField } from "./places";
import { CANADIAN_PROVINCE_COUNT, findProvince, PROVINCE_CODES, PROVINCES } from "./provinces";
import { EN, makeElement } from "./test-elements";

describe("countryField", () => {
  const country = makeElement("country");

  it("matches alpha-3, alpha-2, name or numeric code, ignoring case, and stores alpha-2", () => {
    for (const text of ["canada", "CAN", "CA", "124", "can", "Canada "]) expect(countryField.parse(country, text, EN), text).toEqual({ ok: true, value: "CA" });
    expect(countryField.parse(country, "036", EN)).toEqual({ ok: true, value: "AU" });
    expect(countryField.parse(country, "36", EN)).toEqual({ ok: true, value: "AU" });
    expect(countryField.parse(country, "cote d'ivoire", EN)).toEqual({ ok: true, value: "CI" });
    expect(countryField.parse(country, "St. Lucia", EN)).toEqual({ ok: true, value: "LC" });
    expect(countryField.parse(country, "United States of America", EN)).toEqual({ ok: true, value: "US" });
  });

  it("stores Other as OC", () => {
    expect(countryField.parse(country, "Other", EN)).toEqual({ ok: true, value: "OC" });
    expect(countryField.parse(country, "oc", EN)).toEqual({ ok: true, value: "OC" });
    expect(countryField.display(country, "OC", "en")).toBe("Other");
  });

  it("refuses unknown countries; blank and ---- are empty", () => {
    expect(countryField.parse(country, "Atlantis", EN)).toEqual({ ok: false, error: "No such country" });
    expect(countryField.parse(country, "999", EN).ok).toBe(false);
    expect(countryField.parse(country, "----", EN)).toEqual({ ok: true, value: null });
    expect(countryField.display(country, "CA", "en")).toBe("Canada");
  });

  it("has about 195 countries with unique codes", () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(190);
    expect(COUNTRIES.length).toBeLessThanOrEqual(200);
    expect(new Set(COUNTRIES.map((c) => c.alpha2)).size).toBe(COUNTRIES.length);
    expect(new Set(COUNTRIES.map((c) => c.alpha3)).size).toBe(COUNTRIES.length);
    expect(findCountry("GBR")?.alpha2).toBe("GB");
    expect(findCountry("826")?.alpha2).toBe("GB");
  });
});

describe("provinceField", () => {
  const province = makeElement("province");
  const message =
    "Invalid province. Possible options are: AB, BC, MB, NB, NL, NT, NS, NU, ON, PE, QC, SK, YT, " +
    "AL, AK, AZ, AR, CA, CO, CT, DE, DC, FL, GA, HI, ID, IL, IN, IA, KS, KY, LA, ME, MD, MA, MI, MN, MS, MO, MT, NE, NV, NH, NJ, NM, NY, NC, ND, OH, OK, OR, PA, RI, SC, SD, TN, TX, UT, VT, VA, WA, WV, WI, WY";

  it("stores the two-letter code from a code or a name", () => {
    expect(provinceField.parse(province, "on", EN)).toEqual({ ok: true, value: "ON" });
    expect(provinceField.parse(province, "Québec", EN)).toEqual({ ok: true, value: "QC" });
    expect(provinceField.parse(province, "new york", EN)).toEqual({ ok: true, value: "NY" });
    expect(provinceField.display(province, "PE", "en")).toBe("Prince Edward Island");
  });

  it("lists the codes, Canada's 13 first, when refusing", () => {
    expect(provinceField.parse(province, "ZZ", EN)).toEqual({ ok: false, error: message });
  });

  it("sorts each group by name", () => {
    expect(PROVINCES.slice(0, CANADIAN_PROVINCE_COUNT).every((p) => p.country === "CA")).toBe(true);
    expect(PROVINCES.slice(CANADIAN_PROVINCE_COUNT).every((p) => p.country === "US")).toBe(true);
    for (const group of [PROVINCES.slice(0, CANADIAN_PROVINCE_COUNT), PROVINCES.slice(CANADIAN_PROVINCE_COUNT)]) {
      const names = group.map((p) => p.name);
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en")));
    }
    expect(new Set(PROVINCE_CODES).size).toBe(PROVINCE_CODES.length);
    expect(findProvince("Yukon")?.code).toBe("YT");
  });
});
