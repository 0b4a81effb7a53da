import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// Integration tests inside workerd: the real Worker entry, D1 through the real migrations, the RaceRoom.
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "schema/migrations/d1"));
  return {
    plugins: [
      cloudflareTest({
        main: "./workers/index.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          // Stripe keys for the in-process fake (tests/fakes/stripe); nothing leaves the machine. Spectator
          // shards fill at 4 sockets here, so tests see an audience spread over several shards.
          // Every test file shares one client address, so the data API's rate limits are lifted here; the limiter
          // itself is tested through TEST_TINY_LIMIT (tests/integration/auth-limits.test.ts).
          ratelimits: {
            DATA_API_TOKEN_LIMIT: { simple: { limit: 1_000_000, period: 60 } },
            DATA_API_CLIENT_LIMIT: { simple: { limit: 1_000_000, period: 60 } },
            TEST_TINY_LIMIT: { simple: { limit: 3, period: 60 } },
          },
          bindings: {
            TEST_MIGRATIONS: migrations,
            SPECTATOR_SHARD_TARGET: "4",
            STRIPE_SECRET_KEY: "sk_test_integration",
            STRIPE_WEBHOOK_SECRET: "whsec_integration",
            STRIPE_API_BASE: "http://127.0.0.1:12111",
            // Custom domains against the in-process Cloudflare fake (tests/fakes/cloudflare, routeCloudflareTo).
            CLOUDFLARE_API_BASE: "http://127.0.0.1:12287/client/v4",
            CLOUDFLARE_ZONE_ID: "023e105f4ecef8ad9ca31a8372d0c353",
            CLOUDFLARE_API_TOKEN: "integration-cloudflare-token",
          },
        },
      }),
    ],
    resolve: {
      alias: { "remix-server-build": path.join(import.meta.dirname, "build/server/index.js") },
    },
    test: {
      include: ["tests/integration/**/*.test.ts"],
      setupFiles: ["./tests/integration/apply-migrations.ts"],
      deps: {
        optimizer: {
          ssr: { enabled: true, include: ["@remix-run/cloudflare", "@remix-run/server-runtime", "stripe"] },
        },
      },
    },
  };
});
