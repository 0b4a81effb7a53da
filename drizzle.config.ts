import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./schema/d1/tables.ts",
  out: "./schema/migrations/d1",
});
