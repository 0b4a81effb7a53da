/**
 * Local development only (`ENVIRONMENT=development`), for load tests of the administration lists: adds up to
 * 10,000 synthetic rows of one registry class in one statement, owned by the objects the body names. Only a
 * System Administrator configured for the class's area may call it; production has no /_dev mount at all.
 */
import { sql, type SQL } from "drizzle-orm";
import * as z from "zod";
import { can } from "../../core/access/policy";
import { loadRoles } from "../auth/roles";
import { findEntityClass } from "../../schema/entities/classes";
import type { EntityField } from "../../schema/entities/registry";
import { json } from "../http";
import type { RequestContext } from "../request-context";

export const BULK_ROWS_MAX = 10_000;

const bodySchema = z
  .object({
    classname: z.string().max(64),
    count: z.number().int().min(1).max(BULK_ROWS_MAX),
    /** Values for owner and reference fields by API name (club, site, registration, depot, type, …). */
    owners: z.record(z.string().regex(/^[a-z_]{1,40}$/), z.string().max(64)).default({}),
    /** Optional fields to fill with a synthetic value all the same (an e-mail unique per row), by API name. */
    fill: z
      .array(z.string().regex(/^[a-z_]{1,40}$/))
      .max(20)
      .default([]),
    /** One value for every row, by API name (a newsletter bench's paid carts: `{"is_complete": true}`). */
    set: z.record(z.string().regex(/^[a-z_]{1,40}$/), z.union([z.string().max(200), z.number(), z.boolean()])).default({}),
  })
  .strict();

type ColumnMeta = { name: string; notNull: boolean; hasDefault: boolean };

// A synthetic value per row i, unique where the column is (a key, a path, an e-mail), for required columns only.
function syntheticValue(field: EntityField, classname: string): SQL {
  switch (field.type) {
    case "string":
      return field.api === "email" || field.api === "holder_email"
        ? sql`'bench-' || n.i || '@example.com'`
        : field.api === "path"
          ? sql`'/bench-' || n.i`
          : sql`${`bench-${classname.toLowerCase()}-`} || printf('%05d', n.i)`;
    case "int":
    case "float":
      return sql`n.i`;
    case "time":
      return sql`(unixepoch('subsec') * 1000) - n.i`;
    case "bool":
      return sql`0`;
    case "json":
      return sql`'[]'`;
  }
}

export async function handleDevBulkRows(request: Request, context: RequestContext): Promise<Response> {
  if (context.env.ENVIRONMENT !== "development") return json({ error: "not_found" }, { status: 404 });
  if (request.method !== "POST") return json({ error: "method_not_allowed" }, { status: 405, headers: { Allow: "POST" } });
  if (!context.session) return json({ error: "unauthorized" }, { status: 401 });
  const body = bodySchema.safeParse(await request.json().catch(() => ({})));
  if (!body.success) return json({ error: "invalid_request", message: body.error.message }, { status: 400 });
  const entity = findEntityClass(body.data.classname);
  if (!entity) return json({ error: "not_found", message: "No such class" }, { status: 404 });
  const principal = { userId: context.session.user.id, roles: await loadRoles(context.db, context.session.user.id), activeRoleId: null };
  if (!can(principal, "administer", { area: entity.area })) return json({ error: "forbidden" }, { status: 403 });

  const columns: SQL[] = [entity.idColumn.name, entity.createdColumn.name, entity.mtimesColumn.name].map((name) => sql`${sql.identifier(name)}`);
  const values: SQL[] = [
    sql`lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`,
    sql`(unixepoch('subsec') * 1000) - n.i`,
    sql`'{}'`,
  ];
  for (const field of entity.fields) {
    if (field.api === "uuid" || field.api === "created_time") continue;
    const meta = field.column as unknown as ColumnMeta;
    const owner = body.data.owners[field.api];
    const constant = body.data.set[field.api];
    if (owner !== undefined) values.push(sql`${owner}`);
    else if (constant !== undefined) values.push(sql`${typeof constant === "boolean" ? Number(constant) : constant}`);
    else if ((meta.notNull && !meta.hasDefault) || body.data.fill.includes(field.api)) values.push(syntheticValue(field, entity.classname));
    else continue;
    columns.push(sql`${sql.identifier(meta.name)}`);
  }
  const statement = sql`INSERT INTO ${entity.table} (${sql.join(columns, sql`, `)})
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${body.data.count})
    SELECT ${sql.join(values, sql`, `)} FROM n`;
  try {
    await context.db.run(statement);
  } catch (error) {
    return json({ error: "invalid_request", message: String(error) }, { status: 400 });
  }
  return json({ classname: entity.classname, added: body.data.count });
}
