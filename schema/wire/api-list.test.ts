import { describe, expect, it } from "vitest";
import {
  API_LIST_CONTENT_TYPE,
  ApiListError,
  encodeApiList,
  listColumnTypes,
  parseApiList,
  type ListColumn,
  type ListColumnType,
  type ListRow,
  type ListValue,
} from "./api-list";

function listError(text: string): ApiListError {
  try {
    parseApiList(text);
  } catch (error) {
    if (error instanceof ApiListError) return error;
    throw error;
  }
  throw new Error(`parseApiList accepted ${JSON.stringify(text)}`);
}

function roundTrip(columns: readonly ListColumn[], rows: ListRow[]): ListRow[] {
  const parsed = parseApiList(encodeApiList(columns, rows));
  expect(parsed.columns).toEqual(columns);
  return parsed.rows;
}

const col = (name: string, type: ListColumnType): ListColumn => ({ name, type });

describe("encodeApiList", () => {
  it("writes a typed header and CRLF-terminated records", () => {
    const columns = [col("uuid", "string"), col("name", "string"), col("n", "int"), col("ok", "bool"), col("tags", "json")];
    const text = encodeApiList(columns, [
      { uuid: "a1", name: "Smith, Jo", n: -3, ok: true, tags: ["road"] },
      { uuid: "a2", name: "", n: null, ok: false, tags: null },
    ]);
    expect(text).toBe('uuid:string,name:string,n:int,ok:bool,tags:json\r\na1,"Smith, Jo",-3,true,"[""road""]"\r\na2,"",,false,\r\n');
  });

  it("writes only the header when there are no rows", () => {
    const columns = [col("uuid", "string"), col("open_time", "time")];
    expect(encodeApiList(columns, [])).toBe("uuid:string,open_time:time\r\n");
  });

  it("writes a missing key as null (a bare empty cell)", () => {
    expect(encodeApiList([col("uuid", "string"), col("name", "string")], [{ uuid: "a" }])).toBe("uuid:string,name:string\r\na,\r\n");
  });

  it("quotes strings only when needed, and the empty string always", () => {
    const text = encodeApiList([col("s", "string")], [{ s: "plain" }, { s: "" }, { s: 'a"b' }, { s: "x\ny" }, { s: null }]);
    expect(text).toBe('s:string\r\nplain\r\n""\r\n"a""b"\r\n"x\ny"\r\n\r\n');
  });

  it("takes rows from any iterable", () => {
    function* rows() {
      yield { id: 1 };
      yield { id: 2 };
    }
    expect(encodeApiList([col("id", "int")], rows())).toBe("id:int\r\n1\r\n2\r\n");
  });

  it("names its content type", () => {
    expect(API_LIST_CONTENT_TYPE).toBe("text/x-z4-api-list");
  });
});

describe("parseApiList", () => {
  it("parses the example of docs/api/list-format.md", () => {
    const text =
      'uuid:string,name:string,open_time:time,is_approved:bool,tags:json\r\n3f0c…,"Spring 10K, 2027",1763700000000,true,"[""road""]"\r\n9a1d…,"",,false,\r\n';
    expect(parseApiList(text)).toEqual({
      columns: [col("uuid", "string"), col("name", "string"), col("open_time", "time"), col("is_approved", "bool"), col("tags", "json")],
      rows: [
        { uuid: "3f0c…", name: "Spring 10K, 2027", open_time: 1763700000000, is_approved: true, tags: ["road"] },
        { uuid: "9a1d…", name: "", open_time: null, is_approved: false, tags: null },
      ],
    });
  });

  it("reads a header with no rows, with or without the final line break", () => {
    const expected = { columns: [col("uuid", "string"), col("n", "int")], rows: [] };
    expect(parseApiList("uuid:string,n:int\r\n")).toEqual(expected);
    expect(parseApiList("uuid:string,n:int")).toEqual(expected);
  });

  it("accepts LF line ends", () => {
    expect(parseApiList("a:int,b:string\n1,x\n2,\n").rows).toEqual([
      { a: 1, b: "x" },
      { a: 2, b: null },
    ]);
  });

  it("reads a bare empty cell as null and a quoted empty cell as the empty string", () => {
    const rows = parseApiList('s:string,t:string\r\n,""\r\n"",\r\n').rows;
    expect(rows).toEqual([
      { s: null, t: "" },
      { s: "", t: null },
    ]);
    expect(rows[0]?.s).toBeNull();
    expect(rows[0]?.t).toBe("");
  });

  it("reads a bare empty cell as null for every column type", () => {
    const columns = listColumnTypes.map((type) => col(`c_${type}`, type));
    const header = columns.map((c) => `${c.name}:${c.type}`).join(",");
    const [row] = parseApiList(`${header}\r\n${",".repeat(columns.length - 1)}\r\n`).rows;
    expect(row).toEqual(Object.fromEntries(columns.map((c) => [c.name, null])));
  });

  it("reads a one-column row of null as an empty line", () => {
    expect(parseApiList("s:string\r\n\r\nx\r\n\r\n").rows).toEqual([{ s: null }, { s: "x" }, { s: null }]);
  });

  it("reads numbers in the accepted forms", () => {
    const rows = parseApiList("i:int,f:float,t:time\r\n-0042,-1.5e3,0\r\n7,.5,1763700000000\r\n").rows;
    expect(rows).toEqual([
      { i: -42, f: -1500, t: 0 },
      { i: 7, f: 0.5, t: 1763700000000 },
    ]);
  });

  it("refuses numbers it could not write back and names that are not columns", () => {
    expect(() => parseApiList("f:float\r\n0x10\r\n")).toThrow("'0x10' is not a valid float for f");
    expect(() => parseApiList("f:float\r\n 1\r\n")).toThrow(ApiListError);
    expect(() => parseApiList("i:int\r\n9007199254740993\r\n")).toThrow("'9007199254740993' is not a valid int for i");
    expect(() => encodeApiList([{ name: "f", type: "float" }], [{ f: Number.NaN }])).toThrow("NaN is not a finite number that can be listed");
    expect(() => encodeApiList([{ name: "i", type: "int" }], [{ i: 1e21 }])).toThrow(ApiListError);
    expect(() => parseApiList("__proto__:string\r\nx\r\n")).toThrow("Malformed list header cell '__proto__:string'");
  });

  it("reads a quoted json cell holding commas and quotes", () => {
    const rows = parseApiList('j:json\r\n"{""a"":""x, \\""y\\"""",""b"":[1,null]}"\r\n').rows;
    expect(rows).toEqual([{ j: { a: 'x, "y"', b: [1, null] } }]);
  });

  describe("errors", () => {
    it("refuses a record with the wrong number of cells, naming its line", () => {
      const missing = listError("a:int,b:int\r\n1,2\r\n3\r\n");
      expect(missing.message).toBe("Line 3: expected 2 cells, found 1");
      expect(listError("a:int,b:int\r\n1,2,3\r\n").message).toBe("Line 2: expected 2 cells, found 3");
      expect(listError("a:int,b:int\r\n1,2\r\n3,4\r\n5,6\r\n7,8,\r\n").message).toBe("Line 5: expected 2 cells, found 3");
    });

    it("refuses values of the wrong type, naming line, value, type and column", () => {
      expect(listError("uuid:string,n:int\r\nu1,1\r\nu2,abc\r\n").message).toBe("Line 3: 'abc' is not a valid int for n");
      expect(listError("ok:bool\r\nyes\r\n").message).toBe("Line 2: 'yes' is not a valid bool for ok");
      expect(listError("ok:bool\r\nTRUE\r\n").message).toBe("Line 2: 'TRUE' is not a valid bool for ok");
      expect(listError("ok:bool\r\n1\r\n").message).toBe("Line 2: '1' is not a valid bool for ok");
      expect(listError('data:json\r\n"{""a"":}"\r\n').message).toBe("Line 2: '{\"a\":}' is not a valid json for data");
      expect(listError("data:json\r\nroad\r\n").message).toBe("Line 2: 'road' is not a valid json for data");
      expect(listError("n:int\r\n1.5\r\n").message).toBe("Line 2: '1.5' is not a valid int for n");
      expect(listError("n:int\r\n1e3\r\n").message).toBe("Line 2: '1e3' is not a valid int for n");
      expect(listError("n:int\r\n+1\r\n").message).toBe("Line 2: '+1' is not a valid int for n");
      expect(listError("t:time\r\nnow\r\n").message).toBe("Line 2: 'now' is not a valid time for t");
      expect(listError("f:float\r\nabc\r\n").message).toBe("Line 2: 'abc' is not a valid float for f");
      expect(listError("f:float\r\n12abc\r\n").message).toBe("Line 2: '12abc' is not a valid float for f");
      expect(listError("f:float\r\n1.5.2\r\n").message).toBe("Line 2: '1.5.2' is not a valid float for f");
      expect(listError("f:float\r\nNaN\r\n").message).toBe("Line 2: 'NaN' is not a valid float for f");
      expect(listError("f:float\r\nInfinity\r\n").message).toBe("Line 2: 'Infinity' is not a valid float for f");
      expect(listError('f:float\r\n" "\r\n').message).toBe("Line 2: ' ' is not a valid float for f");
    });

    it("refuses a quoted empty cell where only a string may be empty", () => {
      expect(listError('n:int\r\n""\r\n').message).toBe("Line 2: '' is not a valid int for n");
      expect(listError('f:float\r\n""\r\n').message).toBe("Line 2: '' is not a valid float for f");
      expect(listError('b:bool\r\n""\r\n').message).toBe("Line 2: '' is not a valid bool for b");
      expect(listError('j:json\r\n""\r\n').message).toBe("Line 2: '' is not a valid json for j");
    });

    it("refuses malformed header cells", () => {
      const cases: [string, string][] = [
        ["n:integer", "n:integer"], // unknown type
        ["n:Int", "n:Int"], // types are lower case
        ["n", "n"], // missing type
        ["n:", "n:"], // empty type
        [":int", ":int"], // missing name
        ["Name:string", "Name:string"], // bad name: upper case
        ["1n:int", "1n:int"], // bad name: leading digit
        ["first-name:string", "first-name:string"], // bad name: dash
        ["n:int:x", "n:int:x"], // extra part
        ["a:int,,b:int", ""], // empty header cell
      ];
      for (const [header, cell] of cases) {
        expect(listError(`${header}\r\n`).message, header).toBe(`Malformed list header cell '${cell}'`);
      }
    });

    it("checks the header before the rows", () => {
      expect(listError("n:nope\r\nabc,def\r\n").message).toBe("Malformed list header cell 'n:nope'");
    });

    it("refuses an empty list and malformed CSV", () => {
      expect(listError("").message).toBe("Malformed list: no header");
      expect(listError('s:string\r\n"open').message).toBe("Malformed list: Unterminated quoted cell");
      expect(listError('s:string\r\n"a"b\r\n').message).toBe("Malformed list: Text after a closing quote");
      expect(listError('s:string\r\na"b\r\n').message).toBe("Malformed list: A quote inside an unquoted cell");
    });

    it("throws a named ApiListError", () => {
      const error = listError("");
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe("ApiListError");
    });
  });
});

describe("encode then parse", () => {
  it("keeps null apart from the empty string", () => {
    const columns = [col("a", "string"), col("b", "string")];
    expect(
      roundTrip(columns, [
        { a: null, b: "" },
        { a: "", b: null },
        { a: "", b: "" },
        { a: null, b: null },
      ]),
    ).toEqual([
      { a: null, b: "" },
      { a: "", b: null },
      { a: "", b: "" },
      { a: null, b: null },
    ]);
  });

  it("keeps strings with commas, quotes, line breaks, spaces and unicode", () => {
    const values = ["Smith, Jo", 'say "hi"', '"', '""', ",", "line1\r\nline2", "a\nb", "\r", " padded ", "ñandú 😀 中文", "null", "true", "0"];
    const rows = values.map((s, i) => ({ i, s }));
    expect(roundTrip([col("i", "int"), col("s", "string")], rows)).toEqual(rows);
  });

  it("keeps negative and large whole numbers and times", () => {
    const values = [0, 1, -1, 42, -987654321, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 1763700000000];
    const rows = values.map((n) => ({ n, t: Math.abs(n) }));
    expect(roundTrip([col("n", "int"), col("t", "time")], rows)).toEqual(rows);
  });

  it("keeps floats, including tiny and huge ones", () => {
    const values = [0, 12.5, -0.1, 0.1 + 0.2, 1e-7, -1e-300, 1.7976931348623157e308, Number.MIN_VALUE, 5, -123456.789];
    const rows = values.map((f) => ({ f }));
    const parsed = roundTrip([col("f", "float")], rows);
    expect(parsed).toEqual(rows);
    parsed.forEach((row, i) => expect(Object.is(row.f, values[i])).toBe(true));
  });

  it("keeps booleans", () => {
    const rows = [{ b: true }, { b: false }, { b: null }];
    expect(roundTrip([col("b", "bool")], rows)).toEqual(rows);
  });

  it("keeps json arrays and objects with quotes, commas and line breaks", () => {
    const values: ListValue[] = [
      [],
      {},
      ["road", "trail, mud", 'quoted "x"'],
      { name: 'Jo "JJ" Smith, Jr.', nested: { list: [1, -2.5, true, null, "a\r\nb"] }, empty: "" },
      [{ a: [] }, [[], {}], "ñ😀"],
      "plain json string",
      "",
      42,
      false,
    ];
    const rows = values.map((j, i) => ({ i, j }));
    expect(roundTrip([col("i", "int"), col("j", "json")], rows)).toEqual(rows);
  });

  it("keeps every column type in one row", () => {
    const columns = [col("uuid", "string"), col("s", "string"), col("i", "int"), col("f", "float"), col("b", "bool"), col("t", "time"), col("j", "json")];
    const rows: ListRow[] = [
      { uuid: "u1", s: "a,b", i: -7, f: 2.25, b: false, t: 1763700000000, j: { k: ['"', ","] } },
      { uuid: "u2", s: "", i: null, f: null, b: null, t: null, j: null },
    ];
    expect(roundTrip(columns, rows)).toEqual(rows);
  });
});

// mulberry32: a small deterministic PRNG, so the random round trip is the same on every run.
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("randomized round trip", () => {
  const random = mulberry32(0x5eed1234);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)] as T;
  const alphabet = ["a", "b", "Z", "0", "9", " ", ",", '"', "\r", "\n", "\r\n", ":", "|", "ñ", "é", "😀", "中", "\t", "'", "\\"];

  const text = (maxLength: number) => Array.from({ length: int(0, maxLength) }, () => pick(alphabet)).join("");

  function jsonValue(depth: number): unknown {
    const kind = int(0, depth > 2 ? 3 : 5);
    switch (kind) {
      case 0:
        return text(8);
      case 1:
        return int(-1e6, 1e6) / pick([1, 4, 1000]);
      case 2:
        return pick([true, false, null]);
      case 3:
        return int(-100, 100);
      case 4:
        return Array.from({ length: int(0, 4) }, () => jsonValue(depth + 1));
      default:
        return Object.fromEntries(Array.from({ length: int(0, 4) }, () => [text(5), jsonValue(depth + 1)]));
    }
  }

  function value(type: ListColumnType): ListValue {
    if (random() < 0.15) return null;
    switch (type) {
      case "string":
        return random() < 0.1 ? "" : text(12);
      case "int":
        return pick([int(-1000, 1000), int(-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)]);
      case "time":
        return int(0, 4102444800000);
      case "float": {
        const f = (random() * 2 - 1) * 10 ** int(-10, 15);
        // -0 writes as "0"; it is left out here and reported separately.
        return Object.is(f, -0) ? 0 : f;
      }
      case "bool":
        return random() < 0.5;
      case "json":
        return jsonValue(0) as ListValue;
    }
  }

  const columns: ListColumn[] = [
    col("uuid", "string"),
    ...listColumnTypes.map((type, i) => col(`${type}_${i}`, type)),
    col("note", "string"),
    col("extra_json", "json"),
  ];
  const rows: ListRow[] = Array.from({ length: 200 }, (_, r) => {
    const row: ListRow = { uuid: `row-${r}` };
    for (const column of columns.slice(1)) row[column.name] = value(column.type);
    return row;
  });

  it("generates a varied sample (nulls, empty strings, special characters in every row set)", () => {
    const cells = rows.flatMap((row) => Object.values(row));
    expect(cells.filter((v) => v === null).length).toBeGreaterThan(20);
    expect(cells.filter((v) => v === "").length).toBeGreaterThan(5);
    const strings = cells.filter((v): v is string => typeof v === "string");
    for (const special of [",", '"', "\n", "\r", "😀"]) expect(strings.some((s) => s.includes(special))).toBe(true);
    expect(cells.some((v) => typeof v === "number" && v < 0)).toBe(true);
    expect(cells.some((v) => typeof v === "number" && Math.abs(v) > 2 ** 40)).toBe(true);
    expect(cells.some((v) => Array.isArray(v))).toBe(true);
  });

  it("parses 200 random rows back to the values they were written from", () => {
    const text = encodeApiList(columns, rows);
    expect(text.endsWith("\r\n")).toBe(true);
    const parsed = parseApiList(text);
    expect(parsed.columns).toEqual(columns);
    expect(parsed.rows).toHaveLength(200);
    parsed.rows.forEach((row, i) => expect(row, `row ${i}`).toEqual(rows[i]));
    // toEqual treats a missing key like undefined; the exact key sets must match too.
    parsed.rows.forEach((row, i) => expect(Object.keys(row)).toEqual(Object.keys(rows[i] ?? {})));
  });

  it("uses a deterministic generator", () => {
    // mulberry32(1) starts with 2693262067 / 2^32 in the reference implementation.
    expect(mulberry32(1)() * 4294967296).toBe(2693262067);
    const first = mulberry32(0x5eed1234);
    const again = mulberry32(0x5eed1234);
    const a = Array.from({ length: 5 }, () => first());
    expect(Array.from({ length: 5 }, () => again())).toEqual(a);
    expect(new Set(a).size).toBe(5);
    for (const x of a) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
  });
});
