import { describe, expect, it } from "vitest";
import { cronsOf, minuteMatches } from "./local-cron";

describe("the local cron of npm start", () => {
  it("fires each trigger of wrangler.toml on its minutes", () => {
    const crons = cronsOf(process.cwd());
    expect(crons).toEqual(["17 * * * *", "*/5 * * * *"]);
    expect([0, 5, 17, 55].map((m) => minuteMatches("*/5 * * * *", m))).toEqual([true, true, false, true]);
    expect([16, 17, 18].map((m) => minuteMatches("17 * * * *", m))).toEqual([false, true, false]);
  });
});
