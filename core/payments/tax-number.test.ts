import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { normaliseQstNumber, normaliseTaxNumber, QST_NUMBER_MESSAGE, qstNumberSchema, TAX_NUMBER_MESSAGE, taxNumberSchema } from "./tax-number";

describe("a club's GST/HST number", () => {
  it("is nine digits, RT and four digits, written one way", () => {
    expect(normaliseTaxNumber("123456789 RT0001")).toBe("123456789 RT0001");
    expect(normaliseTaxNumber("123456789rt0001")).toBe("123456789 RT0001");
    expect(normaliseTaxNumber("123-456-789 RT 0001")).toBe("123456789 RT0001");
    expect(normaliseTaxNumber("12345678 RT0001")).toBeNull();
    expect(normaliseTaxNumber("123456789 RP0001")).toBeNull();
    expect(normaliseTaxNumber("1234567890 TQ0001")).toBeNull();
  });

  it("may be left blank, and says how it is written when it is not one", () => {
    expect(taxNumberSchema.parse("  ")).toBeNull();
    const refused = taxNumberSchema.safeParse("GST 12345");
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe(TAX_NUMBER_MESSAGE);
  });

  it("reads back as itself once written (property)", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{9}$/), fc.stringMatching(/^\d{4}$/), (bn, account) => {
        const written = normaliseTaxNumber(`${bn}rt${account}`);
        return written === `${bn} RT${account}` && normaliseTaxNumber(written) === written;
      }),
      fcParams(),
    );
  });
});

describe("a Quebec club's QST number", () => {
  it("is ten digits, TQ and four digits, written one way", () => {
    expect(normaliseQstNumber("1234567890 TQ0001")).toBe("1234567890 TQ0001");
    expect(normaliseQstNumber("1234567890tq0001")).toBe("1234567890 TQ0001");
    expect(normaliseQstNumber("1234-567-890 TQ 0001")).toBe("1234567890 TQ0001");
    expect(normaliseQstNumber("123456789 TQ0001")).toBeNull();
    expect(normaliseQstNumber("1234567890 RT0001")).toBeNull();
    expect(normaliseQstNumber("123456789 RT0001")).toBeNull();
  });

  it("may be left blank, and says how it is written when it is not one", () => {
    expect(qstNumberSchema.parse("")).toBeNull();
    const refused = qstNumberSchema.safeParse("123456789 RT0001");
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe(QST_NUMBER_MESSAGE);
  });

  it("reads back as itself once written, and is never a GST/HST number (property)", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{10}$/), fc.stringMatching(/^\d{4}$/), (number, account) => {
        const written = normaliseQstNumber(`${number}-tq-${account}`);
        return written === `${number} TQ${account}` && normaliseQstNumber(written) === written && normaliseTaxNumber(written) === null;
      }),
      fcParams(),
    );
  });
});
