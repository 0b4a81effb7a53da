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
      "scripts/**/*.test.ts",
      "serverbox/**/*.test.ts",
      // The race room's pure modules (no storage, no bindings), shared with the serverbox.
      "durable/race/keypad-rules.test.ts",
      "durable/race/live-results.test.ts",
    ],
    environment: "node",
    // Property tests run hundreds of cases; on a loaded 2-core CI machine one can pass vitest's 5 s default.
    // They are deterministic (one fixed seed), so a longer limit hides no flakiness, only slowness.
    testTimeout: 30_000,
  },
});
