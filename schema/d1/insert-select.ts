/**
 * The SELECT of an INSERT … SELECT, written by column name (decision 0069). drizzle's
 * `insert(table).select(sql)` fills every column of the table in its order, so a positional SELECT breaks
 * silently when a column is added or moved; here each value is named by its column's key and placed in the
 * table's order, a column not named takes its default, and a value is mapped as drizzle maps it (JSON …).
 */
import { getTableColumns, getTableName, is, sql, SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";

export function selectByName<T extends SQLiteTable>(table: T, values: { [K in keyof T["_"]["columns"]]?: unknown }, rest: SQL = sql``): SQL {
  const named = values as Record<string, unknown>;
  for (const key of Object.keys(named)) if (!(key in getTableColumns(table))) throw new Error(`No column ${key} in ${getTableName(table)}`);
  const selected = Object.entries(getTableColumns(table))
    .filter(([, column]) => !column.generated)
    .map(([key, column]) => {
      const value = key in named ? named[key] : column.defaultFn ? column.defaultFn() : column.default;
      if (value === undefined) {
        if (column.notNull) throw new Error(`Column ${column.name} has no value and no default`);
        return sql`NULL`;
      }
      return is(value, SQL) ? value : sql`${column.mapToDriverValue(value)}`;
    });
  return sql`SELECT ${sql.join(selected, sql`, `)} ${rest}`;
}
