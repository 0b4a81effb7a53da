/**
 * Provinces (section 9): Canada's 13 provinces and territories first, then the US states and the
 * District of Columbia, each group sorted by name. The invalid-province message lists codes in this order.
 */

export interface Province {
  code: string;
  name: string;
  country: "CA" | "US";
}

const CANADA: readonly [string, string][] = [
  ["AB", "Alberta"],
  ["BC", "British Columbia"],
  ["MB", "Manitoba"],
  ["NB", "New Brunswick"],
  ["NL", "Newfoundland and Labrador"],
  ["NT", "Northwest Territories"],
  ["NS", "Nova Scotia"],
  ["NU", "Nunavut"],
  ["ON", "Ontario"],
  ["PE", "Prince Edward Island"],
  ["QC", "Quebec"],
  ["SK", "Saskatchewan"],
  ["YT", "Yukon"],
];

const UNITED_STATES: readonly [string, string][] = [
  ["AL", "Alabama"],
  ["AK", "Alaska"],
  ["AZ", "Arizona"],
  ["AR", "Arkansas"],
  ["CA", "California"],
  ["CO", "Colorado"],
  ["CT", "Connecticut"],
  ["DE", "Delaware"],
  ["DC", "District of Columbia"],
  ["FL", "Florida"],
  ["GA", "Georgia"],
  ["HI", "Hawaii"],
  ["ID", "Idaho"],
  ["IL", "Illinois"],
  ["IN", "Indiana"],
  ["IA", "Iowa"],
  ["KS", "Kansas"],
  ["KY", "Kentucky"],
  ["LA", "Louisiana"],
  ["ME", "Maine"],
  ["MD", "Maryland"],
  ["MA", "Massachusetts"],
  ["MI", "Michigan"],
  ["MN", "Minnesota"],
  ["MS", "Mississippi"],
  ["MO", "Missouri"],
  ["MT", "Montana"],
  ["NE", "Nebraska"],
  ["NV", "Nevada"],
  ["NH", "New Hampshire"],
  ["NJ", "New Jersey"],
  ["NM", "New Mexico"],
  ["NY", "New York"],
  ["NC", "North Carolina"],
  ["ND", "North Dakota"],
  ["OH", "Ohio"],
  ["OK", "Oklahoma"],
  ["OR", "Oregon"],
  ["PA", "Pennsylvania"],
  ["RI", "Rhode Island"],
  ["SC", "South Carolina"],
  ["SD", "South Dakota"],
  ["TN", "Tennessee"],
  ["TX", "Texas"],
  ["UT", "Utah"],
  ["VT", "Vermont"],
  ["VA", "Virginia"],
  ["WA", "Washington"],
  ["WV", "West Virginia"],
  ["WI", "Wisconsin"],
  ["WY", "Wyoming"],
];

const byName = (a: readonly [string, string], b: readonly [string, string]) => a[1].localeCompare(b[1], "en");

export const PROVINCES: readonly Province[] = [
  ...[...CANADA].sort(byName).map(([code, name]): Province => ({ code, name, country: "CA" })),
  ...[...UNITED_STATES].sort(byName).map(([code, name]): Province => ({ code, name, country: "US" })),
];

/** How many of PROVINCES are Canadian; they come first. */
export const CANADIAN_PROVINCE_COUNT = 13;

export const PROVINCE_CODES: readonly string[] = PROVINCES.map((province) => province.code);

const normalise = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").trim().toLowerCase();

/** The province a code or name names, ignoring case and accents ("Québec"). */
export function findProvince(text: string): Province | undefined {
  const wanted = normalise(text);
  return PROVINCES.find((province) => province.code.toLowerCase() === wanted) ?? PROVINCES.find((province) => normalise(province.name) === wanted);
}
