import { expect, test } from "@playwright/test";
import { demoClubs, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url, waitForHydration } from "./hosts";

test("a club admin pairs a serverbox by the code it shows, and sees it listed, last seen after its heartbeat", async ({ browser, request }) => {
  test.setTimeout(60_000);
  const coach = demoUsers.find((u) => u.role.type === "org_admin")!;
  const club = demoClubs[0];
  const serial = `SB-${Date.now().toString(36)}`;

  // 1. The box asks to be paired and shows its code.
  const started = await request.post(url("localhost", "/serverbox-api/pair"), { data: { serial, name: "Finish tent box", software_version: "1.4.0" } });
  expect(started.status()).toBe(200);
  const pairing = (await started.json()) as { device_code: string; user_code: string; verification_uri_complete: string };
  const pending = await request.post(url("localhost", "/serverbox-api/token"), { data: { device_code: pairing.device_code } });
  expect(((await pending.json()) as { error: string }).error).toBe("authorization_pending");

  // 2. The club admin opens the box's short address, signs in, finds the box by its code and approves (a double click approves once).
  const context = await browser.newContext();
  const admin = await context.newPage();
  await admin.goto(url("localhost", `/pair?code=${pairing.user_code}`));
  await signInWithPasswordFrom(admin, coach.email, coach.password);
  await admin.waitForURL((u) => u.pathname === `/club/${club.id}/servers/pair`);
  await waitForHydration(admin);
  await expect(admin.getByRole("heading", { name: "Serverbox Finish tent box" })).toBeVisible();
  await expect(admin.getByText(serial)).toBeVisible();
  await admin.getByRole("button", { name: "Approve" }).dblclick();
  await admin.waitForURL((u) => u.pathname === `/club/${club.id}/servers`);
  await expect(admin.getByText("Serverbox paired.")).toBeVisible();
  const row = admin.getByRole("row").filter({ hasText: serial });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Paired, not seen yet");
  await expect(row).toContainText("Never");

  // 3. The box's next poll gets its token; with it the box reports in with a new version.
  const issued = await request.post(url("localhost", "/serverbox-api/token"), { data: { device_code: pairing.device_code } });
  expect(issued.status()).toBe(200);
  const { server_token } = (await issued.json()) as { server_token: string };
  const beat = await request.post(url("localhost", "/serverbox-api/heartbeat"), {
    headers: { Authorization: `Bearer ${server_token}` },
    data: { software_version: "1.5.0" },
  });
  expect(beat.status()).toBe(200);

  // 4. The list shows it seen, with its version; Revoke ends its token.
  await admin.reload();
  await expect(row).toContainText("Active");
  await expect(row).toContainText("1.5.0");
  await expect(row).not.toContainText("Never");
  await row.getByRole("link", { name: "Revoke Finish tent box" }).click();
  await admin.getByRole("button", { name: "Revoke" }).click();
  await expect(admin.getByText("Server revoked.")).toBeVisible();
  await expect(row).toContainText("Revoked");
  const after = await request.get(url("localhost", "/serverbox-api/races"), { headers: { Authorization: `Bearer ${server_token}` } });
  expect(after.status()).toBe(401);
  await context.close();
});
