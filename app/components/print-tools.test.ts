import { describe, expect, it } from "vitest";
import { cssString, pagePrintCss } from "./print-tools";

describe("the printed page header", () => {
  it("escapes a race's name so it can close neither the CSS string nor the style element", () => {
    expect(cssString('Lac "Beauport" </style><script>')).toBe('"Lac \\22 Beauport\\22  \\3c \\2f style\\3e \\3c script\\3e "');
    expect(cssString("Sögne · 10 km")).toBe('"S\\f6 gne \\b7  10 km"');
    const css = pagePrintCss("</style>", 12);
    expect(css).not.toContain("</style>");
    expect(css).toContain("--print-size: 12pt");
    expect(css).toContain('@bottom-right { content: "Page " counter(page) " of " counter(pages);');
  });
});
