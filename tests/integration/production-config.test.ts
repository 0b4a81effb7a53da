import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../workers/index";
import { openDb } from "../../schema/d1";
import { createSiteWithRace, hostRequest } from "./fixtures";

const productionEnv = {
  ...env,
  ENVIRONMENT: "production",
  MAIL_MODE: "send",
  PUBLIC_SCHEME: "https",
  PUBLIC_PORT: "",
  AUTH_SECRET: "x".repeat(40),
  STRIPE_API_BASE: undefined,
  CLOUDFLARE_API_BASE: undefined,
} as Env;

async function fetchWith(overrides: Partial<Env>, request: Request) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...productionEnv, ...overrides }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

describe("a Worker that says it is production", () => {
  it("refuses to serve with development mail, http links, a short secret, the Stripe fake or the Cloudflare fake", async () => {
    await createSiteWithRace(openDb(env.DB), { hostname: "prod.localhost", siteName: "Prod", raceName: "Prod Run" });
    const bad: Partial<Env>[] = [
      { MAIL_MODE: "capture" },
      { PUBLIC_SCHEME: "http" },
      { AUTH_SECRET: "short" },
      { AUTH_SECRET: undefined },
      { STRIPE_API_BASE: "http://127.0.0.1:12111" },
      { CLOUDFLARE_API_BASE: "http://127.0.0.1:12287/client/v4" },
    ];
    for (const overrides of bad) {
      const response = await fetchWith(overrides, hostRequest("prod.localhost", "/dev/mail"));
      expect(response.status, JSON.stringify(overrides)).toBe(503);
      expect(await response.text()).not.toContain("sign-in");
    }
  });

  it("answers /dev/mail with 404 even with every production setting right", async () => {
    await createSiteWithRace(openDb(env.DB), { hostname: "prod2.localhost", siteName: "Prod2", raceName: "Prod2 Run" });
    const response = await fetchWith({}, hostRequest("prod2.localhost", "/dev/mail"));
    expect(response.status).toBe(404);
    const home = await fetchWith({}, hostRequest("prod2.localhost", "/"));
    expect(home.status).toBe(200);
  });
});
