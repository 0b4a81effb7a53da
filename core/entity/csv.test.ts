import { describe, expect, it } from "vitest";
import { csvCell, csvSafe, CsvSyntaxError, parseCsv, spreadsheetCsv, type CsvCell } from "./csv";

// Shorthands for expected cells.
const bare = (text: string): CsvCell => ({ text, quoted: false });
const quoted = (text: string): CsvCell => ({ text, quoted: true });

/** The texts of every record, for cases where the quoted flag is not the point. */
function texts(input: string): string[][] {
  return parseCsv(input).map((record) => record.map((cell) => cell.text));
}

function syntaxError(input: string): CsvSyntaxError {
  try {
    parseCsv(input);
  } catch (error) {
    if (error instanceof CsvSyntaxError) return error;
    throw error;
  }
  throw new Error(`parseCsv accepted ${JSON.stringify(input)}`);
}

describe("parseCsv", () => {
  it("reads bare cells and records", () => {
    expect(parseCsv("a,b,c\r\n1,2,3")).toEqual([
      [bare("a"), bare("b"), bare("c")],
      [bare("1"), bare("2"), bare("3")],
    ]);
  });

  it("returns no records for empty input", () => {
    expect(parseCsv("")).toEqual([]);
  });

  it("reads a single bare cell without a line break", () => {
    expect(parseCsv("x")).toEqual([[bare("x")]]);
  });

  it("keeps commas inside a quoted cell", () => {
    expect(parseCsv('"Smith, Jo",2')).toEqual([[quoted("Smith, Jo"), bare("2")]]);
  });

  it("turns doubled quotes into one quote", () => {
    expect(parseCsv('"say ""hi""",""""')).toEqual([[quoted('say "hi"'), quoted('"')]]);
  });

  it("reads a quoted cell that is only doubled quotes and commas", () => {
    expect(parseCsv('""""",",x')).toEqual([[quoted('"",'), bare("x")]]);
    expect(parseCsv('""""""",""",x')).toEqual([[quoted('""","'), bare("x")]]);
  });

  it("accepts CRLF and LF line ends, also mixed", () => {
    const expected = [
      ["a", "b"],
      ["c", "d"],
      ["e", "f"],
    ];
    expect(texts("a,b\r\nc,d\r\ne,f")).toEqual(expected);
    expect(texts("a,b\nc,d\ne,f")).toEqual(expected);
    expect(texts("a,b\r\nc,d\ne,f\r\n")).toEqual(expected);
  });

  it("ends a record at a lone CR", () => {
    expect(texts("a\rb")).toEqual([["a"], ["b"]]);
  });

  it("keeps line breaks inside a quoted cell", () => {
    expect(parseCsv('"line 1\r\nline 2\nline 3",z\r\nnext')).toEqual([[quoted("line 1\r\nline 2\nline 3"), bare("z")], [bare("next")]]);
  });

  it("does not make an empty record from a trailing line break", () => {
    expect(parseCsv("a,b\r\n")).toEqual([[bare("a"), bare("b")]]);
    expect(parseCsv("a,b\n")).toEqual([[bare("a"), bare("b")]]);
    expect(parseCsv('a,"b"\r\n')).toEqual([[bare("a"), quoted("b")]]);
  });

  it("keeps a blank line in the middle as a record of one bare empty cell", () => {
    expect(parseCsv("a\r\n\r\nb\r\n")).toEqual([[bare("a")], [bare("")], [bare("b")]]);
  });

  it("reads a lone line break as one record of one bare empty cell", () => {
    expect(parseCsv("\r\n")).toEqual([[bare("")]]);
  });

  it("tells a quoted empty cell from a bare empty cell", () => {
    expect(parseCsv('"",,x,""')).toEqual([[quoted(""), bare(""), bare("x"), quoted("")]]);
  });

  it("reads empty cells at the start and end of a record", () => {
    expect(parseCsv(",a,")).toEqual([[bare(""), bare("a"), bare("")]]);
    expect(parseCsv(",\r\n,")).toEqual([
      [bare(""), bare("")],
      [bare(""), bare("")],
    ]);
  });

  it("keeps spaces and unicode as they are", () => {
    expect(parseCsv(' a , ñ😀 ,"  "')).toEqual([[bare(" a "), bare(" ñ😀 "), quoted("  ")]]);
  });

  it("keeps records of different lengths", () => {
    expect(texts("a,b,c\r\nd\r\ne,f")).toEqual([["a", "b", "c"], ["d"], ["e", "f"]]);
  });

  describe("errors", () => {
    it("refuses an unterminated quoted cell", () => {
      expect(syntaxError('"abc').message).toBe("Unterminated quoted cell");
      expect(syntaxError('a,"b\r\nc').message).toBe("Unterminated quoted cell");
      // A doubled quote at the end is an escaped quote, not the closing one.
      expect(syntaxError('"abc""').message).toBe("Unterminated quoted cell");
      expect(syntaxError('"').message).toBe("Unterminated quoted cell");
    });

    it("refuses text after a closing quote", () => {
      expect(syntaxError('"a"b').message).toBe("Text after a closing quote");
      expect(syntaxError('"a" ,b').message).toBe("Text after a closing quote");
      expect(syntaxError('x,"a"b\r\n').message).toBe("Text after a closing quote");
    });

    it("refuses a quote inside an unquoted cell", () => {
      expect(syntaxError('a"b').message).toBe("A quote inside an unquoted cell");
      expect(syntaxError('ab"').message).toBe("A quote inside an unquoted cell");
      expect(syntaxError('x\r\n "a"').message).toBe("A quote inside an unquoted cell");
    });

    it("throws a named CsvSyntaxError", () => {
      const error = syntaxError('"');
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe("CsvSyntaxError");
    });
  });
});

describe("csvCell", () => {
  it("leaves plain text bare", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell(" spaced ")).toBe(" spaced ");
    expect(csvCell("ñ😀")).toBe("ñ😀");
    expect(csvCell("")).toBe("");
  });

  it("quotes a cell holding a comma, quote, CR or LF", () => {
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("a\rb")).toBe('"a\rb"');
    expect(csvCell("a\nb")).toBe('"a\nb"');
    expect(csvCell('"')).toBe('""""');
  });

  it("quotes on request, keeping the empty string apart from a bare empty cell", () => {
    expect(csvCell("", true)).toBe('""');
    expect(csvCell("plain", true)).toBe('"plain"');
    expect(csvCell('a"b', true)).toBe('"a""b"');
  });

  it("writes cells that parseCsv reads back with the same text", () => {
    const values = ["", "plain", "a,b", '"', '""', 'x "y" z', "line\r\nbreak", "\n", ",", " lead", "ñ,😀"];
    const line = values.map((value) => csvCell(value, value === "")).join(",");
    const [record, ...rest] = parseCsv(line + "\r\n");
    expect(rest).toEqual([]);
    expect(record?.map((cell) => cell.text)).toEqual(values);
    expect(record?.[0]).toEqual(quoted(""));
    expect(record?.[1]).toEqual(bare("plain"));
  });
});

describe("spreadsheetCsv and csvSafe", () => {
  it("prefixes cells a spreadsheet would run as a formula", () => {
    for (const cell of ["=SUM(A1)", "+1", "-2+3", "-A1", "@cmd", "\tx"]) expect(csvSafe(cell)).toBe(`'${cell}`);
    expect(csvSafe("Anna = fast")).toBe("Anna = fast");
    // A plain negative number (a refund) is a number to a spreadsheet, never a formula.
    expect(csvSafe("-2")).toBe("-2");
    expect(csvSafe("-12.50")).toBe("-12.50");
  });

  it("starts with a byte order mark, quotes every cell and ends lines in CRLF", () => {
    const text = spreadsheetCsv(
      ["Bib", "Name"],
      [
        ["1", 'Anna "The Rocket", Berg'],
        ["2", "=HYPERLINK()"],
      ],
    );
    expect(text.startsWith("\uFEFF")).toBe(true);
    expect(text).toBe('\uFEFF"Bib","Name"\r\n"1","Anna ""The Rocket"", Berg"\r\n"2","\'=HYPERLINK()"\r\n');
  });
});
