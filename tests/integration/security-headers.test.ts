import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openDb } from "../../schema/d1";
import { createUserWithPassword, signIn } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";

const worker = exports.default;

/** Every header of issue 28's list, whatever made the response. */
function expectHardened(headers: Headers, label: string) {
  const csp = headers.get("Content-Security-Policy") ?? "";
  expect(csp, label).toContain("frame-ancestors 'none'");
  expect(headers.get("X-Frame-Options"), label).toBe("DENY");
  expect(headers.get("X-Content-Type-Options"), label).toBe("nosniff");
  expect(headers.get("Referrer-Policy"), label).toBe("strict-origin-when-cross-origin");
  expect(headers.get("Permissions-Policy"), label).toContain("microphone=()");
}

/** The nonce of a page's policy; every <script> of the page must carry it. */
function nonceOf(headers: Headers): string {
  const match = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)'/.exec(headers.get("Content-Security-Policy") ?? "");
  expect(match).not.toBeNull();
  return match![1]!;
}

describe("security headers on every kind of response", () => {
  it("gives each page a fresh script nonce that every inline script carries, and no unsafe-inline for scripts", async () => {
    const { race } = await createSiteWithRace(openDb(env.DB), { hostname: "hdr.localhost", siteName: "Hdr", raceName: "Header Run" });
    const first = await worker.fetch(hostRequest("hdr.localhost", `/races/${race.id}`));
    const html = await first.text();
    expect(first.status).toBe(200);
    expectHardened(first.headers, "results page");
    const nonce = nonceOf(first.headers);
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(first.headers.get("Content-Security-Policy")).not.toMatch(/script-src[^;]*unsafe-inline/);
    const second = await worker.fetch(hostRequest("hdr.localhost", `/races/${race.id}`));
    expect(nonceOf(second.headers)).not.toBe(nonce);
  });

  it("covers the consent page, sign-in pages, API answers, redirects, not-found pages and the unknown host", async () => {
    await createSiteWithRace(openDb(env.DB), { hostname: "kinds.localhost", siteName: "Kinds", raceName: "Kinds Run" });
    const user = await createUserWithPassword("kinds@example.com", "correct horse battery");
    const cookie = await signIn("kinds.localhost", user.email, "correct horse battery");
    const cases: [string, Request][] = [
      ["login page", hostRequest("kinds.localhost", "/login")],
      [
        "consent page",
        hostRequest("kinds.localhost", "/login/authorize?client_id=nope&redirect_uri=https%3A%2F%2Fx.example%2Fcb&response_type=code", {
          headers: { Cookie: cookie },
        }),
      ],
      ["signed-in page", hostRequest("kinds.localhost", "/manage/security", { headers: { Cookie: cookie } })],
      ["redirect", hostRequest("kinds.localhost", "/manage/security")],
      ["page not found", hostRequest("kinds.localhost", "/no/such/page")],
      ["auth API", hostRequest("kinds.localhost", "/_auth/session")],
      ["data API", hostRequest("kinds.localhost", "/data-api/v1/races")],
      ["timing API", hostRequest("kinds.localhost", "/timing-api/v1/nothing")],
      ["Remix data request", hostRequest("kinds.localhost", "/login.data")],
      ["unknown host", hostRequest("nobody-here.localhost", "/")],
    ];
    for (const [label, request] of cases) {
      const response = await worker.fetch(request);
      await response.arrayBuffer();
      expect(response.status, label).toBeLessThan(500);
      expectHardened(response.headers, label);
      const isHtml = (response.headers.get("Content-Type") ?? "").startsWith("text/html");
      // Only a Remix page has scripts; everything else allows none.
      if (!isHtml || label === "unknown host") expect(response.headers.get("Content-Security-Policy"), label).not.toContain("script-src");
    }
  });

  it("sends Strict-Transport-Security with includeSubDomains over https only", async () => {
    await createSiteWithRace(openDb(env.DB), { hostname: "tls.localhost", siteName: "Tls", raceName: "Tls Run" });
    const plain = await worker.fetch(hostRequest("tls.localhost", "/login"));
    expect(plain.headers.get("Strict-Transport-Security")).toBeNull();
    const secure = await worker.fetch(new Request("https://tls.localhost/login", { headers: { Host: "tls.localhost" } }));
    expect(secure.headers.get("Strict-Transport-Security")).toBe("max-age=63072000; includeSubDomains");
    const api = await worker.fetch(new Request("https://tls.localhost/_auth/session", { headers: { Host: "tls.localhost" } }));
    expect(api.headers.get("Strict-Transport-Security")).toContain("includeSubDomains");
  });
});
