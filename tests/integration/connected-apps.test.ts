import { describe, expect, it } from "vitest";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { createUserWithPassword, db, pagePost, signIn, worker } from "./auth-fixtures";
import { approveApp, authorizeQuery, bearerGet, createApp, pkce, REDIRECT, tokenRequest } from "./oauth-fixtures";

const HOST = "localhost";

/** A user who authorised an app through the real consent and token endpoints, with the tokens it got. */
async function connect(email: string, appId: string) {
  const { race } = await createSiteWithRace(db(), { hostname: `${email.split("@")[0]}.localhost`, siteName: "Connected", raceName: "Connected Race" });
  const user = await createUserWithPassword(email, "glacier-ski-42", [{ type: "race_admin", scope: race.id }]);
  const cookie = await signIn(HOST, email, "glacier-ski-42");
  const { verifier, challenge } = pkce();
  const { code } = await approveApp(HOST, cookie, authorizeQuery(appId, challenge));
  const tokens = await (
    await tokenRequest(HOST, { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: appId, code_verifier: verifier })
  ).json<{ access_token: string; refresh_token: string }>();
  return { user, cookie, tokens };
}

const connectedPage = async (cookie: string) =>
  (await worker.fetch(hostRequest("localhost:8787", "/manage/connected", { headers: { Cookie: cookie } }))).text();

describe("connected apps (ASVS 3.5.1)", () => {
  it("lists the apps a user authorised, and disconnecting one revokes its tokens for that user only", async () => {
    const appId = await createApp();
    const ann = await connect("ann-connected@example.com", appId);
    const bob = await connect("bob-connected@example.com", appId);
    expect(await connectedPage(ann.cookie)).toContain("Results Helper");

    const done = await pagePost(HOST, "/manage/connected", { intent: "disconnect", app_id: appId }, ann.cookie);
    expect(done.status).toBeLessThan(400);
    expect(await connectedPage(ann.cookie)).toContain("No app can act for you.");
    expect((await bearerGet(HOST, "/data-api/me", ann.tokens.access_token)).status).toBe(401);
    const refreshed = await tokenRequest(HOST, { grant_type: "refresh_token", refresh_token: ann.tokens.refresh_token, client_id: appId });
    expect(refreshed.status).toBe(400);

    // Bob's grant and tokens are his own: Ann's disconnect, and Bob's page, show him still connected.
    expect((await bearerGet(HOST, "/data-api/me", bob.tokens.access_token)).status).toBe(200);
    expect(await connectedPage(bob.cookie)).toContain("Results Helper");
  });

  it("cannot disconnect an app for someone else: the form only ever acts on the signed-in user's grants", async () => {
    const appId = await createApp();
    const owner = await connect("owner-connected@example.com", appId);
    await createUserWithPassword("other-connected@example.com", "glacier-ski-42");
    const other = await signIn(HOST, "other-connected@example.com", "glacier-ski-42");
    const answer = await pagePost(HOST, "/manage/connected", { intent: "disconnect", app_id: appId }, other);
    expect(await answer.text()).toContain("That app was not found.");
    expect((await bearerGet(HOST, "/data-api/me", owner.tokens.access_token)).status).toBe(200);
  });
});
