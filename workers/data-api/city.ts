/** `GET/POST /data-api/{Class}/{uuid}/city`: an entity's place, set from the shipped city data set by geoname id. */
import { eq } from "drizzle-orm";
import * as z from "zod";
import { cityInfoFromRow, type CityInfo } from "../../core/geo/cities";
import { cities } from "../../schema/d1";
import { protectedObjectOf, type EntityClass } from "../../schema/entities/registry";
import { json } from "../http";
import type { RequestContext } from "../request-context";
import { mayChange, readJsonObject, readVisible, type Caller } from "./entities";
import { changeFields } from "./entity-store";
import { badRequest, forbidden, methodNotAllowed, noSuch } from "./errors";
import { publishFieldChanges } from "./hub-client";

const cityFieldNames = ["city_name", "timezone", "geoname", "latitude", "longitude", "province_iso", "country_iso"] as const;

const setCitySchema = z.object({
  geoname_id: z.union([
    z.number().int().positive(),
    z
      .string()
      .regex(/^\d{1,10}$/)
      .transform(Number),
  ]),
});

function placeOf(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(cityFieldNames.map((name) => [name, row[name] ?? null]));
}

export async function handleCity(request: Request, context: RequestContext, caller: Caller, entity: EntityClass, id: string): Promise<Response> {
  if (!entity.hasCity) return json({ error: "not_found", message: `A ${entity.classname} has no city` }, { status: 404 });
  const stored = await readVisible(context, caller, entity, id);
  if (!stored) return noSuch(entity.classname);
  if (request.method === "GET") return json(placeOf(stored.row));
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  if (!(await mayChange(context, caller, entity, stored.row, "edit"))) return forbidden(entity.classname);
  const body = await readJsonObject(request);
  if (body instanceof Response) return body;
  const parsed = setCitySchema.safeParse(body);
  if (!parsed.success) return badRequest("geoname_id must be a GeoNames id");
  const city = await context.db.query.cities.findFirst({ where: eq(cities.geoname, parsed.data.geoname_id) });
  if (!city) return json({ error: "not_found", message: `No city has geoname id ${parsed.data.geoname_id}` }, { status: 404 });
  const place: CityInfo = cityInfoFromRow(city);
  const result = await changeFields(context.db, entity, id, { ...place }, undefined, context.now);
  if (!result?.ok) return noSuch(entity.classname);
  publishFieldChanges(context, entity, id, result.changed, result.mtimes, protectedObjectOf(entity, stored.row));
  return json(place);
}
