import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The shipped city data set (GeoNames, CC BY 4.0; docs/decisions/0007-city-data-set.md): read-only, filled
 * by the data migration that scripts/build-cities.ts writes. Entities copy a city's fields by geoname id.
 */
export const cities = sqliteTable(
  "cities",
  {
    /** GeoNames id. */
    geoname: integer("geoname").primaryKey(),
    name: text("name").notNull(),
    /** `foldName(name)` (core/geo/cities.ts): lowercase ASCII, for prefix search. */
    asciiName: text("ascii_name").notNull(),
    /** ISO 3166-1 alpha-2. */
    countryIso: text("country_iso").notNull(),
    /** ISO 3166-2 subdivision suffix, only for CA and US. */
    provinceIso: text("province_iso"),
    latitude: real("latitude").notNull(),
    longitude: real("longitude").notNull(),
    /** IANA time zone. */
    timezone: text("timezone").notNull(),
    population: integer("population").notNull(),
  },
  (t) => [index("cities_ascii_name").on(t.asciiName)],
);
