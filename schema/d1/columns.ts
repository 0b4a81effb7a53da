import { sql } from "drizzle-orm";
import { integer, real, text } from "drizzle-orm/sqlite-core";
import type { FieldMtimes } from "../../core/entity/field-mtimes";

/** Columns every entity row carries: uuid id, creation time and the per-field modification times. */
export function entityColumns() {
  return {
    id: text("id").primaryKey(),
    createdAt: integer("created_at")
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
    fieldMtimes: text("field_mtimes", { mode: "json" })
      .$type<FieldMtimes>()
      .notNull()
      .default(sql`'{}'`),
  };
}

/** A place (spec section 3: city_name, timezone, geoname, latitude, longitude, province_iso, country_iso), set by geoname id. */
export function cityColumns() {
  return {
    cityName: text("city_name"),
    timezone: text("timezone"),
    geoname: integer("geoname"),
    latitude: real("latitude"),
    longitude: real("longitude"),
    provinceIso: text("province_iso"),
    countryIso: text("country_iso"),
  };
}
