import { env } from "cloudflare:workers";
import { afterAll, beforeEach } from "vitest";
import { routeCloudflareTo } from "../../workers/services/custom-hostnames";
import { createCloudflareFake, type CloudflareFake } from "../fakes/cloudflare/custom-hostnames";

/**
 * A fresh Cloudflare Custom Hostnames fake for each test of the file, with the Worker's calls routed to it.
 * Hostnames stay where they are until the test moves them (`activate`, `move`, `fail`). Returns the current test's fake.
 */
export function withCloudflareFake(): () => CloudflareFake {
  let fake: CloudflareFake | null = null;
  beforeEach(() => {
    fake = createCloudflareFake({ zoneId: env.CLOUDFLARE_ZONE_ID!, token: env.CLOUDFLARE_API_TOKEN!, pollsPerStep: 0 });
    routeCloudflareTo(fake.fetch);
  });
  afterAll(() => routeCloudflareTo(null));
  return () => {
    if (!fake) throw new Error("The Cloudflare fake starts in beforeEach");
    return fake;
  };
}
