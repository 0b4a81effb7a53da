import { describe, expect, it } from "vitest";
import { APP_LIMITS, redirectUriProblem } from "./app-registration";

describe("redirect URIs an app may register", () => {
  it("accepts https anywhere and http only on the loopback", () => {
    expect(redirectUriProblem("https://app.example/callback?x=1")).toBeNull();
    expect(redirectUriProblem("http://127.0.0.1:8790/callback")).toBeNull();
    expect(redirectUriProblem("http://localhost/cb")).toBeNull();
    expect(redirectUriProblem("http://app.example/cb")).toBe('"http://app.example/cb" must use https; http is allowed only for 127.0.0.1 and localhost');
  });

  it("refuses fragments, credentials, other schemes, relative and overlong URIs", () => {
    expect(redirectUriProblem("https://app.example/cb#x")).toBe('"https://app.example/cb#x" must not contain a fragment (#…)');
    expect(redirectUriProblem("https://u:p@app.example/cb")).toBe('"https://u:p@app.example/cb" must not contain a user name or password');
    expect(redirectUriProblem("javascript:alert(1)")).toBe('"javascript:alert(1)" must be an http(s) URL such as https://example.com/callback');
    expect(redirectUriProblem("/callback")).toBe('"/callback" is not an absolute URL; it must start with https://');
    expect(redirectUriProblem("https://app.example/a b")).toBe('"https://app.example/a b" must not contain spaces');
    expect(redirectUriProblem(`https://app.example/${"x".repeat(APP_LIMITS.redirectUri)}`)).toBe("A redirect URI may be at most 2000 characters");
  });
});
