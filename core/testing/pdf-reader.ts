/**
 * A strict reader for the PDFs core/print writes, for tests: it follows the cross-reference table (each
 * offset must land on its object), the trailer, the catalog and page tree, checks each content stream's
 * length, and returns the text each page draws, decoded from WinAnsi. Throws on anything malformed.
 */

export interface ReadPdf {
  /** Each page's text runs in drawing order. */
  pages: string[][];
  /** Each page's content stream (its drawing operators), inflated when it was deflated. */
  contents: string[];
  mediaBoxes: number[][];
  title: string;
}

const CP1252_HIGH = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";

/** WinAnsi bytes back to text. */
export function fromWinAnsi(bytes: string): string {
  return [...bytes].map((c) => (c.charCodeAt(0) >= 128 && c.charCodeAt(0) < 160 ? CP1252_HIGH[c.charCodeAt(0) - 128]! : c)).join("");
}

/** A literal string's bytes without its escapes. */
function unescapeLiteral(body: string): string {
  return body.replace(/\\([\\()nrtbf]|[0-7]{1,3})/g, (_, e: string) => {
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return ({ n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" } as Record<string, string>)[e] ?? e;
  });
}

/**
 * `inflate` reads deflated content streams (the Worker writes them so); a deflated stream with no `inflate`
 * is an error, so a test states which it expects.
 */
export function readPdf(data: Uint8Array, inflate?: (bytes: Uint8Array) => Uint8Array): ReadPdf {
  const text = Array.from(data, (b) => String.fromCharCode(b)).join("");
  if (!text.startsWith("%PDF-1.")) throw new Error("no PDF header");
  const start = /startxref\n(\d+)\n%%EOF\n?$/.exec(text);
  if (!start) throw new Error("no startxref at the end");
  const xrefAt = Number(start[1]);
  const xref = /^xref\n0 (\d+)\n/.exec(text.slice(xrefAt));
  if (!xref) throw new Error(`no xref table at ${xrefAt}`);
  const size = Number(xref[1]);
  const entriesAt = xrefAt + xref[0].length;
  const objects = new Map<number, string>();
  for (let i = 0; i < size; i++) {
    const entry = text.slice(entriesAt + i * 20, entriesAt + (i + 1) * 20);
    const parts = /^(\d{10}) (\d{5}) ([nf])(\r\n| \n| \r)$/.exec(entry);
    if (!parts) throw new Error(`xref entry ${i} is not 20 bytes: ${JSON.stringify(entry)}`);
    if (parts[3] === "f") continue;
    const offset = Number(parts[1]);
    const head = `${i} 0 obj\n`;
    if (text.slice(offset, offset + head.length) !== head) throw new Error(`xref offset of object ${i} (${offset}) does not point at it`);
    const at = offset + head.length;
    // A stream is skipped by its length: deflated bytes may hold anything, "endobj" included.
    const stream = /^<< \/Length (\d+)(?: \/Filter \/FlateDecode)? >>\nstream\n/.exec(text.slice(at, at + 80));
    const end = stream ? at + stream[0].length + Number(stream[1]) + "\nendstream".length : text.indexOf("\nendobj", offset);
    if (text.slice(end, end + 7) !== "\nendobj") throw new Error(`object ${i} does not end where its stream's length says`);
    objects.set(i, text.slice(at, end));
  }
  const trailer = /trailer\n<<(.*)>>\nstartxref/s.exec(text.slice(entriesAt + size * 20));
  if (!trailer || !trailer[1]!.includes(`/Size ${size}`)) throw new Error("trailer missing or of another size");
  const ref = (body: string, key: string) => {
    const match = new RegExp(`/${key} (\\d+) 0 R`).exec(body);
    if (!match) throw new Error(`no /${key} in ${body}`);
    const object = objects.get(Number(match[1]));
    if (object === undefined) throw new Error(`/${key} points at a missing object`);
    return object;
  };
  const catalog = ref(trailer[1]!, "Root");
  const info = ref(trailer[1]!, "Info");
  const tree = ref(catalog, "Pages");
  const kids = [.../\/Kids \[([^\]]*)\]/.exec(tree)![1]!.matchAll(/(\d+) 0 R/g)].map((m) => objects.get(Number(m[1]))!);
  const count = Number(/\/Count (\d+)/.exec(tree)![1]);
  if (kids.length !== count) throw new Error(`/Count ${count} but ${kids.length} kids`);
  const contents = kids.map((page) => {
    const stream = /^<< \/Length (\d+)( \/Filter \/FlateDecode)? >>\nstream\n/.exec(ref(page, "Contents"));
    if (!stream) throw new Error("content stream without a length");
    const body = ref(page, "Contents").slice(stream[0].length);
    const length = Number(stream[1]);
    if (body.slice(length) !== "\nendstream") throw new Error(`stream /Length ${length} is not the stream's length ${body.length - 10}`);
    let content = body.slice(0, length);
    if (stream[2]) {
      if (!inflate) throw new Error("a deflated content stream, and no inflate to read it");
      content = Array.from(inflate(Uint8Array.from(content, (c) => c.charCodeAt(0))), (b) => String.fromCharCode(b)).join("");
    }
    return content;
  });
  const pages = contents.map((content) => [...content.matchAll(/\(((?:\\.|[^\\)])*)\) Tj/gs)].map((m) => fromWinAnsi(unescapeLiteral(m[1]!))));
  const mediaBoxes = kids.map((page) => /\/MediaBox \[([^\]]*)\]/.exec(page)![1]!.split(" ").map(Number));
  const title = /\/Title \(((?:\\.|[^\\)])*)\)/.exec(info);
  return { pages, contents, mediaBoxes, title: title ? fromWinAnsi(unescapeLiteral(title[1]!)) : "" };
}
