import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readPdf } from "../../core/testing/pdf-reader";
import type { PrintSection } from "../../core/print/print-table";
import { tablePdf } from "../../core/print/table-pdf";
import { deflatePdf } from "./pdf-deflate";

const latin1 = (bytes: Uint8Array) => Array.from(bytes, (b) => String.fromCharCode(b)).join("");

describe("the Worker's PDFs", () => {
  it("deflate their content streams, which read back the same and far smaller", () => {
    const sections: PrintSection[] = [
      {
        heading: "All",
        columns: [{ label: "Rank", numeric: true }, { label: "Name" }],
        rows: Array.from({ length: 400 }, (_, i) => [String(i + 1), `Racer ${i}`]),
      },
    ];
    const input = { header: { title: "Race", details: ["Club"], documentName: "Results" }, sections, fontSize: 10, empty: "" };
    const plain = tablePdf(input);
    const packed = tablePdf({ ...input, deflate: deflatePdf });
    expect(latin1(packed)).toContain("/Filter /FlateDecode");
    expect(readPdf(packed, inflateSync)).toEqual(readPdf(plain));
    expect(packed.length).toBeLessThan(plain.length / 3);
  });
});
