import { describe, expect, it } from "vitest";
import { hostRequest } from "./fixtures";
import { createUserWithPassword, formPost, signIn, worker } from "./auth-fixtures";

function get(host: string, path: string, cookie?: string) {
  return worker.fetch(hostRequest(host, path, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" }));
}

describe("sign-in pages", () => {
  it("sends a signed-in user from /login to /manage on the main host and /_admin on the admin host", async () => {
    await createUserWithPassword("redirect@example.com", "glacier-ski-42", [{ type: "system_admin" }]);
    const mainCookie = await signIn("localhost", "redirect@example.com", "glacier-ski-42");
    expect((await get("localhost", "/login", mainCookie)).headers.get("Location")).toBe("/manage");
    const adminCookie = await signIn("admin.localhost", "redirect@example.com", "glacier-ski-42");
    expect((await get("admin.localhost", "/login", adminCookie)).headers.get("Location")).toBe("/_admin");
    expect((await get("localhost", "/login?goto=%2Fmanage%2Fsecurity", mainCookie)).headers.get("Location")).toBe("/manage/security");
    expect((await get("localhost", "/login?goto=https%3A%2F%2Fevil.example%2F", mainCookie)).headers.get("Location")).toBe("/manage");
  });

  it("treats any login URL with both role and goto as a role switch", async () => {
    const response = await get("localhost", "/login?role=r1&goto=%2Fmanage");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login/switch?role=r1&goto=%2Fmanage");
  });

  it("sends a signed-out visitor of a private page to /login and back", async () => {
    const response = await get("localhost", "/manage/security");
    expect(response.headers.get("Location")).toBe("/login?goto=%2Fmanage%2Fsecurity");
  });

  it("shows the sign-in screens' own words", async () => {
    expect(await (await get("localhost", "/login")).text()).toContain("Sign in");
    expect(await (await get("localhost", "/login/unknown/path")).text()).toContain("Invalid path, redirecting...");
    const link = await (await get("localhost", "/login/link")).text();
    expect(link).toContain("Send Sign In Link");
    const reset = await (await get("localhost", "/login/reset?token=t&amp;email=a@b.c")).text();
    expect(reset).toContain("Reset your password");
    expect(reset).toContain("Confirm New Password");
    expect(await (await get("localhost", "/signup")).text()).toContain("Create an Account");
  });

  it("opens the super-admin home only to System Administrators", async () => {
    await createUserWithPassword("super@example.com", "glacier-ski-42", [{ type: "system_admin" }]);
    await createUserWithPassword("clubonly@example.com", "glacier-ski-42", [{ type: "org_admin", clubId: null }]);
    await import("cloudflare:workers").then(({ env }) =>
      env.DB.prepare("UPDATE roles SET config = ? WHERE type = 'system_admin'")
        .bind(JSON.stringify({ all: true }))
        .run(),
    );
    const superCookie = await signIn("admin.localhost", "super@example.com", "glacier-ski-42");
    const home = await get("admin.localhost", "/_admin", superCookie);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Passes &amp; Member Cards");
    const clubCookie = await signIn("admin.localhost", "clubonly@example.com", "glacier-ski-42");
    expect((await get("admin.localhost", "/_admin", clubCookie)).status).toBe(403);
  });

  it("links a System Administrator's role on the main host to the administration host, through a switch", async () => {
    await createUserWithPassword("crosshost@example.com", "glacier-ski-42", [{ type: "system_admin" }]);
    const cookie = await signIn("localhost", "crosshost@example.com", "glacier-ski-42");
    const manage = await (await get("localhost", "/manage", cookie)).text();
    const href = /<a[^>]*class="race-name"[^>]*href="([^"]+)"|<a[^>]*href="([^"]+)"[^>]*class="race-name"/.exec(manage);
    const link = (href?.[1] ?? href?.[2] ?? "").replaceAll("&amp;", "&");
    expect(link).toMatch(/^\/login\/switch\?role=[^&]+&goto=%2F_admin%2Fclubs&domain=admin\.localhost$/);
    const page = await get("localhost", link, cookie);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Domain: admin.localhost");
    const done = await worker.fetch(
      hostRequest("localhost", link, {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
        body: "",
        redirect: "manual",
      }),
    );
    expect(done.headers.get("Location")).toBe("/login/complete");
  });

  it("refuses a cross-site form post to a page action", async () => {
    const response = await formPost(
      "localhost",
      "/login",
      { intent: "email", email: "x@example.com" },
      { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    );
    expect(response.status).toBe(403);
  });

  it("keeps the dev mail page for development and answers 404 in production", async () => {
    const response = await get("localhost", "/dev/mail");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Captured mail");
    const { env } = await import("cloudflare:workers");
    const { loader } = await import("../../app/routes/dev+/mail");
    const production = { ...env, ENVIRONMENT: "production", MAIL_MODE: "send" };
    const args = { request: new Request("http://localhost/dev/mail"), params: {}, context: { env: production } } as unknown as Parameters<typeof loader>[0];
    const refused = await loader(args).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(404);
  });
});

describe("the passkey offer", () => {
  it("remembers 'Skip for Now...' for 7 days", async () => {
    // As a browser sends it: Host and Origin both carry the port.
    const response = await worker.fetch(
      hostRequest("localhost:8787", "/login/passkey", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://localhost:8787", "Sec-Fetch-Site": "same-origin" },
        body: "",
        redirect: "manual",
      }),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login/complete");
    const skip = response.headers.getSetCookie().find((c) => c.startsWith("sl_passkey_skip="))!;
    expect(skip).toContain(`Max-Age=${7 * 24 * 60 * 60}`);
  });
});
