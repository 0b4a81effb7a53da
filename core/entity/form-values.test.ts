import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { fcParams } from "../testing/fast-check";
import { formTextOf, parseFormText, type FormFieldShape } from "./form-values";

const shape = (api: string, type: FormFieldShape["type"], nullable = true): FormFieldShape => ({ api, type, nullable });

describe("entity form text", () => {
  it("reads back what it shows, for times to the minute, numbers, flags and JSON", () => {
    const shapes = [shape("t", "time"), shape("n", "int"), shape("f", "float"), shape("b", "bool"), shape("j", "json"), shape("s", "string", false)];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_102_444_800_000 / 60_000 }).map((m) => m * 60_000),
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }),
        fc.boolean(),
        fc.jsonValue().filter((v) => v !== null),
        fc.string(),
        (t, n, f, b, j, s) => {
          const stored = { t, n, f: Object.is(f, -0) ? 0 : f, b, j: JSON.parse(JSON.stringify(j)) as unknown, s };
          const posted = Object.fromEntries(shapes.map((sh) => [sh.api, formTextOf(sh.type, stored[sh.api as keyof typeof stored])]));
          if (!b) delete posted.b;
          expect(parseFormText(shapes, posted)).toEqual({ ok: true, values: stored });
        },
      ),
      fcParams(200),
    );
  });

  it("reads an empty input as null where the column allows it, and keeps empty text where it does not", () => {
    expect(parseFormText([shape("a", "int"), shape("b", "string", false), shape("c", "time")], { a: " ", b: "", c: "" })).toEqual({
      ok: true,
      values: { a: null, b: "", c: null },
    });
  });

  it("refuses text that is not of the field's type, by field, and a date that does not exist", () => {
    expect(
      parseFormText([shape("a", "int", false), shape("b", "json"), shape("c", "time"), shape("d", "float", false)], {
        a: "1.5",
        b: "{",
        c: "2027-02-31T10:00",
        d: "x",
      }),
    ).toEqual({
      ok: false,
      errors: { a: "Enter a whole number", b: "Enter valid JSON", c: "Enter a date and time", d: "Enter a number" },
    });
  });

  it("reads an unticked checkbox (absent) as false and skips other fields the form did not send", () => {
    expect(parseFormText([shape("flag", "bool", false), shape("name", "string")], {})).toEqual({ ok: true, values: { flag: false } });
  });
});
