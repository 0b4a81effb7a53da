import { describe, expect, it } from "vitest";
import {
  FilterError,
  filterOperators,
  MAX_FILTER_CONDITIONS,
  MAX_FILTER_VALUE_LENGTH,
  parseFilters,
  type FilterCondition,
  type FilterFieldType,
} from "./filters";

const fields: ReadonlyMap<string, FilterFieldType> = new Map<string, FilterFieldType>([
  ["name", "string"],
  ["city_name", "string"],
  ["age", "int"],
  ["price", "float"],
  ["is_approved", "bool"],
  ["open_time", "time"],
  ["tags", "json"],
  ["x2", "string"],
]);

const parse = (text: string) => parseFilters(text, fields);

function filterError(text: string): string {
  try {
    parse(text);
  } catch (error) {
    if (error instanceof FilterError) return error.message;
    throw error;
  }
  throw new Error(`parseFilters accepted ${JSON.stringify(text)}`);
}

const cond = (field: string, op: FilterCondition["op"], value: FilterCondition["value"]): FilterCondition => ({ field, op, value });

describe("parseFilters: operators", () => {
  it("reads every operator on a text field", () => {
    expect(parse("name=Jo,name!=Jo,name<m,name<=m,name>m,name>=m,name~spring,name^spr,name@a|b")).toEqual([
      cond("name", "=", "Jo"),
      cond("name", "!=", "Jo"),
      cond("name", "<", "m"),
      cond("name", "<=", "m"),
      cond("name", ">", "m"),
      cond("name", ">=", "m"),
      cond("name", "~", "spring"),
      cond("name", "^", "spr"),
      cond("name", "@", ["a", "b"]),
    ]);
  });

  it("covers every operator it declares", () => {
    const seen = new Set(parse("name=a,name!=a,name<a,name<=a,name>a,name>=a,name~a,name^a,name@a").map((c) => c.op));
    expect([...seen].sort()).toEqual([...filterOperators].sort());
  });

  it("reads every comparison on a number field", () => {
    expect(parse("age=5,age!=5,age<5,age<=5,age>5,age>=5,age@5")).toEqual([
      cond("age", "=", 5),
      cond("age", "!=", 5),
      cond("age", "<", 5),
      cond("age", "<=", 5),
      cond("age", ">", 5),
      cond("age", ">=", 5),
      cond("age", "@", [5]),
    ]);
  });

  it("does not read <= as < with the value '=…' (nor >= as >)", () => {
    expect(parse("name<=b")).toEqual([cond("name", "<=", "b")]);
    expect(parse("name>=b")).toEqual([cond("name", ">=", "b")]);
    expect(parse("age<=10")).toEqual([cond("age", "<=", 10)]);
    expect(parse("open_time>=1763700000000")).toEqual([cond("open_time", ">=", 1763700000000)]);
    expect(parse("name!=b")).toEqual([cond("name", "!=", "b")]);
  });

  it("keeps what follows the first operator as the value", () => {
    expect(parse("name==x")).toEqual([cond("name", "=", "=x")]);
    expect(parse("name<>x")).toEqual([cond("name", "<", ">x")]);
    expect(parse("name~a=b")).toEqual([cond("name", "~", "a=b")]);
    expect(parse("name=a b ")).toEqual([cond("name", "=", "a b ")]);
  });

  it("reads `field=` as is null and `field!=` as is not null, for any field type", () => {
    expect(parse("name=,age!=,price=,is_approved!=,open_time=")).toEqual([
      cond("name", "=", null),
      cond("age", "!=", null),
      cond("price", "=", null),
      cond("is_approved", "!=", null),
      cond("open_time", "=", null),
    ]);
  });

  it("keeps a quoted empty value as is null too (the value, not the cell, is empty)", () => {
    expect(parse('name=,"age!="')).toEqual([cond("name", "=", null), cond("age", "!=", null)]);
  });

  it("reads an empty value for other operators as a value of the field's type", () => {
    expect(parse("name<,name~,name@")).toEqual([cond("name", "<", ""), cond("name", "~", ""), cond("name", "@", [""])]);
    expect(filterError("age>")).toBe("Filter value for age must be a whole number");
  });

  it("types each @ value by the field", () => {
    expect(parse("age@1|-2|30")).toEqual([cond("age", "@", [1, -2, 30])]);
    expect(parse("price@1.5|-2|3e2")).toEqual([cond("price", "@", [1.5, -2, 300])]);
    expect(parse("is_approved@true|0")).toEqual([cond("is_approved", "@", [true, false])]);
    expect(parse("name@a||b")).toEqual([cond("name", "@", ["a", "", "b"])]);
    expect(parse("open_time@0|1763700000000")).toEqual([cond("open_time", "@", [0, 1763700000000])]);
  });

  it("refuses an @ list with one value of the wrong type", () => {
    expect(filterError("age@1|two|3")).toBe("Filter value for age must be a whole number");
    expect(filterError("is_approved@true|yes")).toBe("Filter value for is_approved must be true or false");
  });

  it("returns no conditions for empty or blank input", () => {
    expect(parse("")).toEqual([]);
    expect(parse("   ")).toEqual([]);
    expect(parse("\r\n")).toEqual([]);
  });

  it("accepts one trailing line break", () => {
    expect(parse("age=1\r\n")).toEqual([cond("age", "=", 1)]);
  });
});

describe("parseFilters: CSV", () => {
  it("reads a quoted cell with commas and doubled quotes as one condition", () => {
    expect(parse('is_approved=true,"name~spring, 10k",open_time>=1763700000000')).toEqual([
      cond("is_approved", "=", true),
      cond("name", "~", "spring, 10k"),
      cond("open_time", ">=", 1763700000000),
    ]);
    expect(parse('"name=say ""hi"", then go"')).toEqual([cond("name", "=", 'say "hi", then go')]);
    expect(parse('"name@a,b|c,d"')).toEqual([cond("name", "@", ["a,b", "c,d"])]);
  });

  it("keeps a line break inside a quoted cell", () => {
    expect(parse('"name=a\nb"')).toEqual([cond("name", "=", "a\nb")]);
  });

  it("refuses malformed CSV with the CSV error", () => {
    expect(filterError('name="x')).toBe("Malformed filters: A quote inside an unquoted cell");
    expect(filterError('"name=x')).toBe("Malformed filters: Unterminated quoted cell");
    expect(filterError('"name=x"y')).toBe("Malformed filters: Text after a closing quote");
  });

  it("refuses conditions on several lines", () => {
    expect(filterError("age=1\nname=x")).toBe("Malformed filters: write every condition on one line");
    expect(filterError("age=1\r\nname=x\r\n")).toBe("Malformed filters: write every condition on one line");
    expect(filterError("age=1\r\n\r\n")).toBe("Malformed filters: write every condition on one line");
  });
});

describe("parseFilters: typed values", () => {
  it("types int and time values as whole numbers", () => {
    expect(parse("age=42,age=-7,age=007,open_time=1763700000000")).toEqual([
      cond("age", "=", 42),
      cond("age", "=", -7),
      cond("age", "=", 7),
      cond("open_time", "=", 1763700000000),
    ]);
    for (const bad of ["1.5", "abc", "1e3", "+1", " 1", "1 ", "-", "12345678901234567"]) {
      expect(filterError(`age=${bad}`), bad).toBe("Filter value for age must be a whole number");
    }
    expect(filterError("open_time>now")).toBe("Filter value for open_time must be a whole number");
  });

  it("types float values as finite numbers", () => {
    expect(parse("price=12.5,price<-0.25,price>=3,price=1e3")).toEqual([
      cond("price", "=", 12.5),
      cond("price", "<", -0.25),
      cond("price", ">=", 3),
      cond("price", "=", 1000),
    ]);
    for (const bad of ["abc", "NaN", "Infinity", "-Infinity", " ", "1,5"]) {
      const text = bad.includes(",") ? `"price=${bad}"` : `price=${bad}`;
      expect(filterError(text), bad).toBe("Filter value for price must be a number");
    }
  });

  it("types bool values from true/false and 1/0 only", () => {
    expect(parse("is_approved=true,is_approved=false,is_approved=1,is_approved!=0")).toEqual([
      cond("is_approved", "=", true),
      cond("is_approved", "=", false),
      cond("is_approved", "=", true),
      cond("is_approved", "!=", false),
    ]);
    for (const bad of ["yes", "TRUE", "True", "2", "no"]) {
      expect(filterError(`is_approved=${bad}`), bad).toBe("Filter value for is_approved must be true or false");
    }
  });

  it("keeps text values as given, numbers included", () => {
    expect(parse("name=42,name=true,name= spaced ")).toEqual([cond("name", "=", "42"), cond("name", "=", "true"), cond("name", "=", " spaced ")]);
  });

  it("keeps SQL-looking values as plain strings", () => {
    const values = ["1 OR 1=1", "x'; DROP TABLE users;--", "%_\\", "a) UNION SELECT * FROM sessions --", "?"];
    for (const value of values) {
      expect(parse(`name=${value}`), value).toEqual([cond("name", "=", value)]);
    }
    expect(parse("name~100%")).toEqual([cond("name", "~", "100%")]);
    expect(parse('"name=\'; DELETE FROM users WHERE ""1""=""1"')).toEqual([cond("name", "=", '\'; DELETE FROM users WHERE "1"="1')]);
  });

  it("refuses SQL-looking values on a number field", () => {
    expect(filterError("age=1 OR 1=1")).toBe("Filter value for age must be a whole number");
    expect(filterError("age=1;DROP TABLE x")).toBe("Filter value for age must be a whole number");
  });
});

describe("parseFilters: errors", () => {
  it("refuses an unknown field", () => {
    expect(filterError("nope=1")).toBe("Unknown filter field 'nope'");
    expect(filterError("age=1,colour~red")).toBe("Unknown filter field 'colour'");
  });

  it("refuses a cell without field, operator and value", () => {
    expect(filterError("age")).toBe("Malformed filter 'age': write field, operator, value");
    expect(filterError("=5")).toBe("Malformed filter '=5': write field, operator, value");
    expect(filterError("Age=5")).toBe("Malformed filter 'Age=5': write field, operator, value");
    expect(filterError(" age=5")).toBe("Malformed filter ' age=5': write field, operator, value");
    expect(filterError("age=1,")).toBe("Malformed filter '': write field, operator, value");
    expect(filterError("age = 1")).toBe("Malformed filter 'age = 1': write field, operator, value");
  });

  it("refuses ~ and ^ on a non-text field", () => {
    expect(filterError("age~1")).toBe("Operator ~ applies only to text fields");
    expect(filterError("price^1")).toBe("Operator ^ applies only to text fields");
    expect(filterError("is_approved~true")).toBe("Operator ~ applies only to text fields");
    expect(filterError("open_time^17")).toBe("Operator ^ applies only to text fields");
  });

  it("refuses a value on a json field", () => {
    expect(filterError("tags=road")).toBe("Field tags cannot be filtered");
    expect(filterError("tags~road")).toBe("Field tags cannot be filtered");
    expect(filterError("tags=")).toBe("Field tags cannot be filtered");
    expect(filterError("tags<1")).toBe("Field tags cannot be filtered");
    expect(filterError("tags@a|b")).toBe("Field tags cannot be filtered");
  });

  it("allows at most 20 conditions", () => {
    const twenty = Array.from({ length: MAX_FILTER_CONDITIONS }, (_, i) => `age!=${i}`).join(",");
    expect(MAX_FILTER_CONDITIONS).toBe(20);
    expect(parse(twenty)).toHaveLength(20);
    expect(filterError(`${twenty},age=99`)).toBe("At most 20 filter conditions are allowed");
  });

  it("allows values of at most 500 characters", () => {
    expect(MAX_FILTER_VALUE_LENGTH).toBe(500);
    const limit = "x".repeat(500);
    expect(parse(`name=${limit}`)).toEqual([cond("name", "=", limit)]);
    expect(filterError(`name=${limit}y`)).toBe("Filter value for name is longer than 500 characters");
    // The whole raw value counts, so a long @ list is refused even if every value is short.
    expect(filterError(`name@${Array.from({ length: 260 }, () => "a").join("|")}`)).toBe("Filter value for name is longer than 500 characters");
  });

  it("checks the length before the type", () => {
    expect(filterError(`age=${"1".repeat(501)}`)).toBe("Filter value for age is longer than 500 characters");
  });

  it("allows at most 100 @ values", () => {
    const hundred = Array.from({ length: 100 }, (_, i) => String(i % 10)).join("|");
    const parsed = parse(`age@${hundred}`);
    expect(parsed[0]?.value).toHaveLength(100);
    expect(filterError(`age@${hundred}|1`)).toBe("At most 100 values are allowed for age");
    expect(filterError(`name@${"a|".repeat(100)}a`)).toBe("At most 100 values are allowed for name");
  });

  it("names the first problem in reading order", () => {
    expect(filterError("age=x,nope=1")).toBe("Filter value for age must be a whole number");
    expect(filterError("nope=1,age=x")).toBe("Unknown filter field 'nope'");
  });

  it("throws a named FilterError", () => {
    try {
      parse("nope=1");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(FilterError);
      expect((error as Error).name).toBe("FilterError");
    }
  });
});
