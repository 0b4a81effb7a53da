import type { D1Migration } from "cloudflare:test";
import type * as mainModule from "../../workers/index";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** A rate limiter of 3 a minute, standing in for the data API's real ones (vitest.workers.config.ts). */
      TEST_TINY_LIMIT: RateLimit;
    }
    interface GlobalProps {
      mainModule: typeof mainModule;
    }
  }
}
