import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

/** The city data migration is 58,701 rows of data, not schema; only the city tests load it (cities.test.ts). */
export const isCityData = (name: string) => name.endsWith("_cities_data.sql");

// Every test file starts from the real schema migrations; storage is isolated per test file.
await applyD1Migrations(
  env.DB,
  env.TEST_MIGRATIONS.filter((m) => !isCityData(m.name)),
);
