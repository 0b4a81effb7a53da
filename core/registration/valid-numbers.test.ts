import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { chunksOf, csvColumns, matchesPattern, normaliseNumber, numbersOfCsv, VALIDATION_WORDS } from "./valid-numbers";

describe("normalising a number", () => {
  it("ignores case, spaces, dots, dashes and leading zeros", () => {
    expect(normaliseNumber(" 00123 456 ")).toBe("123456");
    expect(normaliseNumber("ab-0012.34")).toBe("AB001234");
    expect(normaliseNumber("000")).toBe("0");
    expect(normaliseNumber("")).toBe("");
  });

  it("is idempotent and blind to spacing and case", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (raw) => {
        const once = normaliseNumber(raw);
        expect(normaliseNumber(once)).toBe(once);
        expect(normaliseNumber(` ${raw.toLowerCase()} `)).toBe(normaliseNumber(raw.toUpperCase()));
      }),
      fcParams(),
    );
  });
});

describe("a pattern rule", () => {
  it("matches the whole value, raw or normalised", () => {
    expect(matchesPattern("[A-Z]{3}\\d{4}", "CAN1234")).toBe(true);
    expect(matchesPattern("[A-Z]{3}\\d{4}", "can 1234")).toBe(true);
    expect(matchesPattern("\\d{4}", "12345")).toBe(false);
    expect(matchesPattern("(", "x")).toBe(false);
  });
});

describe("numbers of an uploaded CSV", () => {
  const csv = 'Name,Licence\r\nAda,00123\r\nBo,"ab 7"\r\nCy,\r\nDi,123\r\n';

  it("reads the chosen column, normalised and once each", () => {
    expect(numbersOfCsv(csv, "Licence")).toEqual({ ok: true, value: { columns: ["Name", "Licence"], numbers: ["123", "AB7"] } });
    expect(csvColumns(csv)).toEqual({ ok: true, columns: ["Name", "Licence"] });
  });

  it("refuses a missing column, an empty one and a broken file with words", () => {
    expect(numbersOfCsv(csv, "Number")).toEqual({ ok: false, error: VALIDATION_WORDS.noColumn });
    expect(numbersOfCsv("Name,Licence\r\nAda,\r\n", "Licence")).toEqual({ ok: false, error: VALIDATION_WORDS.noRows });
    expect(numbersOfCsv('Licence\r\n"12', "Licence").ok).toBe(false);
  });

  it("reads 100,000 rows", () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => `p${i},${String(i).padStart(7, "0")}`);
    const read = numbersOfCsv(`name,number\n${rows.join("\n")}\n`, "number");
    expect(read.ok && read.value.numbers.length).toBe(100_000);
  });
});

describe("chunks", () => {
  it("keeps every item once, in order, within the size", () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { maxLength: 60 }), fc.integer({ min: 1, max: 10 }), (items, size) => {
        const chunks = chunksOf(items, size);
        expect(chunks.flat()).toEqual(items);
        expect(chunks.every((c) => c.length > 0 && c.length <= size)).toBe(true);
      }),
      fcParams(),
    );
  });
});
