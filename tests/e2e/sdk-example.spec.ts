import { spawn } from "node:child_process";
import { expect, test } from "@playwright/test";
import { demoRegistrations, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url } from "./hosts";

/** Collects a child process's output and waits for lines in it. */
function watch(child: ReturnType<typeof spawn>) {
  let output = "";
  const waiters: (() => void)[] = [];
  const take = (chunk: Buffer) => {
    output += chunk.toString();
    waiters.splice(0).forEach((wake) => wake());
  };
  child.stdout?.on("data", take);
  child.stderr?.on("data", take);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const line = async (pattern: RegExp) => {
    for (;;) {
      const match = pattern.exec(output);
      if (match) return match;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { line, exited, output: () => output };
}

test("the example app authorises through the browser, lists registrations as CSV and hears a live update", async ({ page }) => {
  test.setTimeout(60_000);
  const coach = demoUsers[1];
  const registration = demoRegistrations(Date.now())[0]!;
  const child = spawn("node_modules/.bin/tsx", ["sdk/examples/registrations-live.ts", "--base", url("localhost", ""), "--touch"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const app = watch(child);
  try {
    const authorize = (await app.line(/^AUTHORIZE (\S+)$/m))[1]!;
    await page.goto(authorize);
    await page.getByRole("link", { name: "Login" }).click();
    await signInWithPasswordFrom(page, coach.email, coach.password);
    await page.waitForURL(/\/login\/authorize\?/);
    await page.getByRole("button", { name: "Authorize" }).click();
    await expect(page.getByRole("heading", { name: "Authorised" })).toBeVisible();

    await app.line(/^AUTHORISED$/m);
    const csvHeader = (await app.line(/^uuid:string,.*$/m))[0];
    expect(csvHeader).toContain("name:string");
    expect(csvHeader).toContain("is_approved:bool");
    expect(app.output()).toContain(`${registration.id},`);
    expect(app.output()).toContain(registration.name);
    const update = JSON.parse((await app.line(/^UPDATE (.+)$/m))[1]!) as { uuid: string; fields: { name: string } };
    expect(update.uuid).toBe(registration.id);
    expect(update.fields.name).toContain(`${registration.name} (updated `);
    expect(await app.exited).toBe(0);
  } finally {
    child.kill();
  }
});
