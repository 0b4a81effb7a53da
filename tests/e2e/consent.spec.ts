import { expect, test } from "@playwright/test";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { sha256 } from "@oslojs/crypto/sha2";
import { demoApp, demoRaces, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url } from "./hosts";

test("a third-party app is authorised on the consent page and gets a scoped token", async ({ page }) => {
  const coach = demoUsers[1];
  const race = demoRaces(Date.now())[0]!;
  const verifier = encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = encodeBase64urlNoPadding(sha256(new TextEncoder().encode(verifier)));
  const redirectUri = demoApp.redirectUris[0];
  // The app's callback is not running here: the browser's request to it is answered by the test.
  await page.route(`${redirectUri}**`, (route) => route.fulfill({ contentType: "text/plain", body: "callback reached" }));

  const query = new URLSearchParams({
    response_type: "code",
    client_id: demoApp.id,
    redirect_uri: redirectUri,
    state: "state-e2e",
    scope: "races registrations nonsense",
    code_challenge: challenge,
    code_challenge_method: "S256",
  });
  await page.goto(url("localhost", `/data-api/authorize?${query}`));
  await expect(page).toHaveURL(/\/login\/authorize\?/);
  await expect(page.getByRole("heading", { name: `Authorize ${demoApp.name}` })).toBeVisible();

  // Signed out: Login comes back here.
  await page.getByRole("link", { name: "Login" }).click();
  await signInWithPasswordFrom(page, coach.email, coach.password);
  await page.waitForURL(/\/login\/authorize\?/);

  await expect(page.getByText(demoApp.description)).toBeVisible();
  await expect(page.getByRole("alert")).toContainText("nonsense");
  const asks = page.getByRole("region", { name: "It asks to use" });
  await expect(asks).toContainText("Races, racers and results");
  await expect(asks).toContainText("Registration forms and registrants");
  await page.getByRole("button", { name: "Authorize" }).click();

  await page.waitForURL((u) => u.href.startsWith(redirectUri));
  const back = new URL(page.url());
  expect(back.searchParams.get("state")).toBe("state-e2e");
  const code = back.searchParams.get("code")!;

  const tokenResponse = await page.request.post(url("localhost", "/data-api/token"), {
    form: { grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: demoApp.id, code_verifier: verifier },
  });
  expect(tokenResponse.status()).toBe(200);
  const tokens = (await tokenResponse.json()) as { access_token: string; scope: string };
  // The coach's roles (club admin, race admin) cover both areas the app asked for.
  expect(tokens.scope).toBe("registrations races");
  const raceResponse = await page.request.get(url("localhost", `/data-api/Race/${race.id}`), { headers: { Authorization: `Bearer ${tokens.access_token}` } });
  expect(await raceResponse.json()).toMatchObject({ classname: "Race", name: race.name });

  // A second visit shows the approval as already given.
  await page.goto(url("localhost", `/login/authorize?${query}`));
  await expect(page.getByRole("region", { name: "Already approved" })).toBeVisible();

  // The coach changes their mind: Connected apps lists the app, and disconnecting it cuts its token off at once.
  await page.goto(url("localhost", "/manage"));
  await page.getByRole("link", { name: "Connected apps" }).click();
  await expect(page.getByText(demoApp.name).first()).toBeVisible();
  await page.getByRole("button", { name: `Disconnect ${demoApp.name}` }).click();
  await expect(page.getByRole("status")).toContainText("The app is disconnected");
  await expect(page.getByText("No app can act for you.")).toBeVisible();
  const afterDisconnect = await page.request.get(url("localhost", `/data-api/Race/${race.id}`), {
    headers: { Authorization: `Bearer ${tokens.access_token}` },
  });
  expect(afterDisconnect.status()).toBe(401);
});
