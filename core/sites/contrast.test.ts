import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { colourProblems, contrastRatio, PRIMARY_CONTRAST, TEXT_CONTRAST } from "./contrast";

const hex = fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, "0")}`);

describe("site colour contrast", () => {
  it("gives WCAG's ratios for known pairs", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#ffffff")).toBeCloseTo(1, 5);
    // #767676 on white is the lightest grey that passes 4.5:1.
    expect(contrastRatio("#767676", "#ffffff")).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio("#777777", "#ffffff")).toBeLessThan(4.5);
  });

  it("is symmetric and between 1 and 21 for any two colours", () => {
    fc.assert(
      fc.property(hex, hex, (a, b) => {
        const ratio = contrastRatio(a, b);
        expect(ratio).toBeCloseTo(contrastRatio(b, a), 10);
        expect(ratio).toBeGreaterThanOrEqual(1);
        expect(ratio).toBeLessThanOrEqual(21.0000001);
      }),
    );
  });

  it("accepts the default colours and names each pair that fails, with its ratio", () => {
    expect(colourProblems({ primary: "#1d4ed8", accent: "#f59e0b", background: "#ffffff", text: "#111827" })).toEqual({});
    expect(colourProblems({ primary: "#ffff00", accent: "#f59e0b", background: "#ffffff", text: "#cccccc" })).toEqual({
      text: "Text on the background needs a contrast of at least 4.5:1; these colours give 1.6:1",
      primary: "The primary colour on the background needs a contrast of at least 3:1 (links and buttons); these colours give 1.0:1",
    });
  });

  it("never reports a pair that meets the thresholds, and always one that misses", () => {
    fc.assert(
      fc.property(hex, hex, hex, (text, primary, background) => {
        const problems = colourProblems({ text, primary, background, accent: "#000000" });
        expect("text" in problems).toBe(contrastRatio(text, background) < TEXT_CONTRAST);
        expect("primary" in problems).toBe(contrastRatio(primary, background) < PRIMARY_CONTRAST);
      }),
    );
  });
});
