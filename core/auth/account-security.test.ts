import { describe, expect, it } from "vitest";
import { formatRecoveryCode, normaliseRecoveryCode } from "./recovery-code";
import { userAgentLabel } from "./user-agent";

describe("recovery codes", () => {
  it("formats 10 characters in two groups and reads them back however they are typed", () => {
    const code = formatRecoveryCode(Uint8Array.from({ length: 10 }, (_, i) => i * 37));
    expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    expect(normaliseRecoveryCode(code)).toBe(code);
    expect(normaliseRecoveryCode(` ${code.toUpperCase().replace("-", " ")} `)).toBe(code);
    expect(normaliseRecoveryCode(code.replace("-", ""))).toBe(code);
  });

  it("takes a typed o for a zero and refuses what no code can be", () => {
    expect(normaliseRecoveryCode("abcd0-23456")).toBe("abcd0-23456");
    expect(normaliseRecoveryCode("abcdo-23456")).toBe("abcd0-23456");
    expect(normaliseRecoveryCode("123456")).toBeNull();
    expect(normaliseRecoveryCode("abcdi-23456")).toBeNull();
    expect(normaliseRecoveryCode("abcde-234567")).toBeNull();
  });
});

describe("user-agent labels", () => {
  it("names the browser and system, or says nothing", () => {
    expect(userAgentLabel("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36")).toBe("Chrome on Linux");
    expect(userAgentLabel("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0")).toBe(
      "Edge on Windows",
    );
    expect(
      userAgentLabel("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"),
    ).toBe("Safari on iOS");
    expect(userAgentLabel(null)).toBeNull();
    expect(userAgentLabel("curl/8.0")).toBe("curl/8.0");
  });
});
