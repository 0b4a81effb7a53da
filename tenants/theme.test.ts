import { describe, expect, it } from "vitest";
import { platformTheme, themeFromSiteConfig, themeStyleVariables } from "./theme";

describe("themeFromSiteConfig", () => {
  it("fills missing colours with defaults", () => {
    const theme = themeFromSiteConfig({ name: "Nordic Demo Club", colours: { primary: "#123456" } }, "demo.localhost");
    expect(theme.name).toBe("Nordic Demo Club");
    expect(theme.colours).toEqual({ primary: "#123456", accent: "#f59e0b", background: "#ffffff", text: "#111827" });
  });

  it("falls back to the platform colours under the hostname for a broken config", () => {
    const theme = themeFromSiteConfig({ colours: { primary: "red" } }, "broken.localhost");
    expect(theme.name).toBe("broken.localhost");
    expect(theme.colours).toEqual(platformTheme.colours);
  });

  it("exposes the colours as CSS variables", () => {
    const vars = themeStyleVariables(themeFromSiteConfig({ name: "X", colours: { accent: "#abcdef" } }, "x"));
    expect(vars["--colour-accent"]).toBe("#abcdef");
    expect(vars["--colour-primary"]).toBe("#1d4ed8");
  });
});
