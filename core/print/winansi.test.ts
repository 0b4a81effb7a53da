import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { fitWinAnsi, textWidth, toWinAnsi } from "./winansi";

const codes = (bytes: string) => [...bytes].map((c) => c.charCodeAt(0));

describe("toWinAnsi", () => {
  it("keeps Latin-1 and the Windows-1252 extras as single bytes", () => {
    expect(codes(toWinAnsi("Aé€–’"))).toEqual([65, 233, 128, 150, 146]);
  });

  it("drops accents WinAnsi lacks, transliterates, and marks the rest with ?", () => {
    expect(toWinAnsi("Łódź Đorđević Dvořák İstanbul")).toBe("Lódz Dordevic Dvorák Istanbul");
    expect(toWinAnsi("Иван 李 🏃")).toBe("???? ? ?");
    // A combining accent joins its letter first.
    expect(toWinAnsi("e\u0301")).toBe("\u00e9");
    expect(toWinAnsi("a\tb\nc\u2003d")).toBe("a b c d");
  });

  it("gives one byte from 32 to 255 for every character, whatever the input", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 30 }), (text) => {
        for (const code of codes(toWinAnsi(text))) expect(code >= 32 && code <= 255 && ![127, 129, 141, 143, 144, 157].includes(code)).toBe(true);
      }),
      fcParams(),
    );
  });
});

describe("widths", () => {
  it("measures with Helvetica's widths", () => {
    // H 722, e 556, l 222, l 222, o 556 = 2278; bold: 722 + 556 + 278 + 278 + 611 = 2445.
    expect(textWidth("Hello", "regular", 10)).toBeCloseTo(22.78);
    expect(textWidth("Hello", "bold", 10)).toBeCloseTo(24.45);
  });

  it("cuts text to fit, with an ellipsis, never wider than asked", () => {
    expect(fitWinAnsi("Short", "regular", 10, 100)).toBe("Short");
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.integer({ min: 5, max: 200 }), (text, width) => {
        const fitted = fitWinAnsi(text, "regular", 10, width);
        expect(textWidth(fitted.replace("\u0085", "…"), "regular", 10)).toBeLessThanOrEqual(width + 1e-9);
      }),
      fcParams(),
    );
  });
});
