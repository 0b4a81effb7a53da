import { defineConfig } from "vitest/config";

// Pure modules tested in Node: core/, tenants/ and other code with no Workers bindings.
export default defineConfig({
  test: {
    include: [
      "core/**/*.test.ts",
      "schema/**/*.test.ts",
      "tenants/**/*.test.ts",
      "workers/**/*.test.ts",
      "sdk/**/*.test.ts",
      "app/**/*.test.ts",
      "tests/fakes/**/*.test.ts",
      "tests/build/**/*.test.ts",
    ],
    environment: "node",
  },
});
