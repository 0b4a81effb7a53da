/**
 * The shipped city data set (table `cities`, filled from GeoNames by scripts/build-cities.ts) as the
 * data API shows it: `GET /data-api/{Class}/{uuid}/city` and the place an entity gets from a geoname id.
 */

/** A place as the data API sends it (spec section 3). */
export interface CityInfo {
  city_name: string;
  /** IANA time zone, e.g. "America/Toronto". */
  timezone: string;
  /** GeoNames id. */
  geoname: number;
  latitude: number;
  longitude: number;
  /** ISO 3166-2 subdivision suffix ("ON", "NY"); only for CA and US, else null. */
  province_iso: string | null;
  /** ISO 3166-1 alpha-2, e.g. "CA". */
  country_iso: string;
}

/** The fields of a `cities` row that make a CityInfo (the drizzle row has these and more). */
export interface CityRow {
  geoname: number;
  name: string;
  countryIso: string;
  provinceIso: string | null;
  latitude: number;
  longitude: number;
  timezone: string;
}

export function cityInfoFromRow(row: CityRow): CityInfo {
  return {
    city_name: row.name,
    timezone: row.timezone,
    geoname: row.geoname,
    latitude: row.latitude,
    longitude: row.longitude,
    province_iso: row.provinceIso,
    country_iso: row.countryIso,
  };
}

/** Latin letters that NFD does not split into a base letter and a mark. */
const LETTERS: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
  ħ: "h",
  ŧ: "t",
  ŋ: "n",
  ə: "e",
};

/**
 * The search form of a name (column `ascii_name`): lowercase ASCII letters, digits and single spaces.
 * Accents are dropped ("Montréal" → "montreal"), apostrophes join ("St. John's" → "st johns"), any other
 * punctuation separates words ("Saint-Jean-sur-Richelieu" → "saint jean sur richelieu"). Scripts other
 * than Latin are dropped, so a name written only in, say, Cyrillic folds to "".
 */
export function foldName(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[ßæœøłđðþıħŧŋə]/g, (ch) => LETTERS[ch] ?? "")
    .replace(/['‘’`ʻʼ]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}
