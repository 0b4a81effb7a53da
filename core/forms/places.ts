import { COUNTRIES, findCountry } from "./countries";
import { fail, firstText, ok, priceAt, type FieldTypeModule } from "./field-type";
import { FORM_MESSAGES } from "./messages";
import { findProvince, PROVINCE_CODES, PROVINCES } from "./provinces";

/** Country and province pickers: stored as codes, shown as names. */

export const countryField: FieldTypeModule<string> = {
  type: "country",
  isInput: true,
  legacyCodes: [24],
  parse(_element, raw) {
    const text = firstText(raw);
    if (text === "" || text === "----") return ok(null);
    const country = findCountry(text);
    return country ? ok(country.alpha2) : fail(FORM_MESSAGES.invalidCountry);
  },
  price: (element, value, tier) => (value ? priceAt(element, tier) : 0),
  display: (_element, value) => (value ? (COUNTRIES.find((country) => country.alpha2 === value)?.name ?? value) : ""),
  isEmpty: (value) => value === null || value === "",
};

export const provinceField: FieldTypeModule<string> = {
  type: "province",
  isInput: true,
  legacyCodes: [],
  parse(_element, raw) {
    const text = firstText(raw);
    if (text === "" || text === "----") return ok(null);
    const province = findProvince(text);
    return province ? ok(province.code) : fail(FORM_MESSAGES.invalidProvince(PROVINCE_CODES));
  },
  price: (element, value, tier) => (value ? priceAt(element, tier) : 0),
  display: (_element, value) => (value ? (PROVINCES.find((province) => province.code === value)?.name ?? value) : ""),
  isEmpty: (value) => value === null || value === "",
};
