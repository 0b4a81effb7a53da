import { describe, expect, it } from "vitest";
import { classifyHost, normaliseHostname } from "./host";

const config = { mainHost: "localhost", adminHost: "admin.localhost" };

describe("normaliseHostname", () => {
  it("lowercases and strips the port and trailing dot", () => {
    expect(normaliseHostname("Demo.Localhost.:8787")).toBe("demo.localhost");
    expect(normaliseHostname("club.example.org")).toBe("club.example.org");
  });

  it("rejects values that are not hostnames", () => {
    expect(normaliseHostname(null)).toBeNull();
    expect(normaliseHostname("")).toBeNull();
    expect(normaliseHostname("[::1]:8787")).toBeNull();
    expect(normaliseHostname("bad host")).toBeNull();
    expect(normaliseHostname("evil.com/path")).toBeNull();
    expect(normaliseHostname("-leading.example")).toBeNull();
  });
});

describe("classifyHost", () => {
  it("knows the configured main and admin hosts", () => {
    expect(classifyHost("localhost", config)).toBe("main");
    expect(classifyHost("admin.localhost", config)).toBe("admin");
  });

  it("treats every other host as a possible whitelabel site", () => {
    expect(classifyHost("demo.localhost", config)).toBe("site");
    expect(classifyHost("results.skiclub.ca", config)).toBe("site");
  });

  it("follows the configuration for production hosts", () => {
    const prod = { mainHost: "startline.app", adminHost: "admin.startline.app" };
    expect(classifyHost("startline.app", prod)).toBe("main");
    expect(classifyHost("admin.startline.app", prod)).toBe("admin");
    expect(classifyHost("localhost", prod)).toBe("site");
  });
});
