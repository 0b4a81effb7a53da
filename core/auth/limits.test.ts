import { describe, expect, it } from "vitest";
import { MAX_FAILURES_PER_CLIENT, MAX_FAILURES_PER_KNOWN_DEVICE, MAX_FAILURES_PER_USER } from "./constants";
import { deviceLabelOf } from "./device-label";
import { fixedWindowStart, guessCounters, secondsUntilWindowEnds } from "./failure-limit";

describe("fixed windows", () => {
  it("starts a window at a whole multiple of its length", () => {
    expect(fixedWindowStart(60_000 * 7 + 59_999, 60_000)).toBe(60_000 * 7);
    expect(fixedWindowStart(60_000 * 8, 60_000)).toBe(60_000 * 8);
  });

  it("tells how long until the window ends, in whole seconds and never zero", () => {
    expect(secondsUntilWindowEnds(60_000 * 7, 60_000)).toBe(60);
    expect(secondsUntilWindowEnds(60_000 * 7 + 58_500, 60_000)).toBe(2);
    expect(secondsUntilWindowEnds(60_000 * 8 - 1, 60_000)).toBe(1);
  });
});

describe("guess counters", () => {
  const base = { userId: "u1", clientKey: "client:abc" };

  it("counts a stranger's password guess against the client first, then the account", () => {
    expect(guessCounters({ ...base, secret: "password", knownDeviceHash: null })).toEqual([
      { key: "client:abc", limit: MAX_FAILURES_PER_CLIENT },
      { key: "user:u1", limit: MAX_FAILURES_PER_USER },
    ]);
  });

  it("counts a known device's guesses under that user and device only, so strangers cannot fill them", () => {
    expect(guessCounters({ ...base, secret: "password", knownDeviceHash: "d9" })).toEqual([{ key: "device:u1:d9", limit: MAX_FAILURES_PER_KNOWN_DEVICE }]);
  });

  it("keeps code guesses apart from password guesses, so password guessing cannot block the code step", () => {
    const code = guessCounters({ ...base, secret: "code", knownDeviceHash: null }).map((c) => c.key);
    const password = guessCounters({ ...base, secret: "password", knownDeviceHash: null }).map((c) => c.key);
    expect(code).toEqual(["client:abc", "user-code:u1"]);
    expect(code.filter((k) => k.startsWith("user")).some((k) => password.includes(k))).toBe(false);
    expect(guessCounters({ ...base, secret: "code", knownDeviceHash: "d9" })[0]!.key).toBe("device-code:u1:d9");
  });
});

describe("device labels", () => {
  it.each([
    ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36", "Chrome on Linux"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0", "Firefox on Windows"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0", "Edge on Windows"],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      "Safari on iPhone",
    ],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15", "Safari on macOS"],
    ["Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36", "Chrome on Android"],
  ])("names %s as %s", (userAgent, label) => {
    expect(deviceLabelOf(userAgent)).toBe(label);
  });

  it("says so when it cannot tell", () => {
    expect(deviceLabelOf(null)).toBe("an unknown browser");
    expect(deviceLabelOf("curl/8.5.0")).toBe("an unknown browser");
    expect(deviceLabelOf("SomeBot (Windows)")).toBe("a browser on Windows");
  });
});
