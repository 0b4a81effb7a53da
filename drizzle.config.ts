import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: [
    "./schema/d1/tables.ts",
    "./schema/d1/auth.ts",
    "./schema/d1/oauth.ts",
    "./schema/d1/cities.ts",
    "./schema/d1/registration.ts",
    "./schema/d1/payments.ts",
    "./schema/d1/history.ts",
    "./schema/d1/admin.ts",
    "./schema/d1/passes.ts",
    "./schema/d1/memberships.ts",
    "./schema/d1/newsletters.ts",
    "./schema/d1/shipping.ts",
    "./schema/d1/servers.ts",
    "./schema/d1/rankings.ts",
    "./schema/d1/gochips.ts",
  ],
  out: "./schema/migrations/d1",
});
