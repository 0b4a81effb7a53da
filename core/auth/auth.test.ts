import { describe, expect, it } from "vitest";
import commonPasswords from "./common-passwords.json";
import { FAILURE_WINDOW_MS } from "./constants";
import { failureWindowStart } from "./failure-limit";
import { safeGoto } from "./goto";
import { newPasswordFormProblem, newPasswordProblem } from "./password-policy";
import { normaliseTotpCode } from "./totp-code";

describe("new password rules", () => {
  it("ships the 1000 most common passwords", () => {
    expect(commonPasswords).toHaveLength(1000);
    expect(new Set(commonPasswords).size).toBe(1000);
    expect(commonPasswords.slice(0, 2)).toEqual(["password", "123456"]);
  });

  it("needs at least 8 characters", () => {
    expect(newPasswordProblem("Xk3#tq9")).toBe("Passwords must be at least 8 characters long");
    expect(newPasswordProblem("Xk3#tq9z")).toBeNull();
  });

  it("refuses a common password whatever its case", () => {
    expect(newPasswordProblem("password")).toBe("This password is not allowed");
    expect(newPasswordProblem("PassWord")).toBe("This password is not allowed");
    expect(newPasswordProblem("baseball")).toBe("This password is not allowed");
  });

  it("needs the confirmation to match", () => {
    expect(newPasswordFormProblem("glacier-ski-42", "glacier-ski-43")).toBe("Passwords do not match");
    expect(newPasswordFormProblem("glacier-ski-42", "glacier-ski-42")).toBeNull();
    expect(newPasswordFormProblem("short", "other")).toBe("Passwords must be at least 8 characters long");
  });
});

describe("two-factor code input", () => {
  it("takes exactly 6 digits, pasted with spaces or a dash", () => {
    expect(normaliseTotpCode("123456")).toBe("123456");
    expect(normaliseTotpCode(" 123 456 ")).toBe("123456");
    expect(normaliseTotpCode("123-456")).toBe("123456");
  });

  it("refuses anything else", () => {
    for (const bad of ["12345", "1234567", "12345a", "", "abcdef", "１２３４５６"]) expect(normaliseTotpCode(bad)).toBeNull();
  });
});

describe("goto", () => {
  const hosts = ["demo.localhost"];
  it("keeps relative paths on this host", () => {
    expect(safeGoto("/manage?x=1", hosts)).toBe("/manage?x=1");
  });
  it("allows absolute URLs on the tenant's own hosts", () => {
    expect(safeGoto("http://demo.localhost:8787/races", hosts)).toBe("http://demo.localhost:8787/races");
  });
  it("refuses other sites and tricks", () => {
    for (const bad of [
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "javascript:alert(1)",
      "http://user@demo.localhost.evil.example/",
      "http://trail.localhost/",
    ]) {
      expect(safeGoto(bad, hosts)).toBeNull();
    }
    expect(safeGoto(null, hosts)).toBeNull();
  });
  it("decodes a goto the data-service client sent encoded, then checks it the same way", () => {
    expect(safeGoto(encodeURIComponent("/club/races?x=1"), hosts)).toBe("/club/races?x=1");
    expect(safeGoto(encodeURIComponent("http://demo.localhost:8787/races"), hosts)).toBe("http://demo.localhost:8787/races");
    expect(safeGoto(encodeURIComponent("//evil.example/x"), hosts)).toBeNull();
    expect(safeGoto(encodeURIComponent("https://evil.example/"), hosts)).toBeNull();
    expect(safeGoto("%2F%E0%A4%A", hosts)).toBeNull();
  });
});

describe("failure limits", () => {
  it("counts failures in fixed windows", () => {
    expect(failureWindowStart(FAILURE_WINDOW_MS * 3 + 5)).toBe(FAILURE_WINDOW_MS * 3);
  });
});
