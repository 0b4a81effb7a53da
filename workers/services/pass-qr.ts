/**
 * A card's QR code (issue 27, decision 0050): the symbol from uqr, already a dependency for two-factor set-up
 * and free of dependencies itself, at error correction M (a creased or scuffed print still scans), drawn as one
 * SVG path with the standard four-module quiet zone. pass-qr.test.ts decodes it back with a decoder of its own.
 */
import { encode } from "uqr";

/** The modules, row by row (true is dark), without the quiet zone. */
export function qrMatrix(text: string): { version: number; modules: boolean[][] } {
  const qr = encode(text, { ecc: "M", border: 0 });
  return { version: qr.version, modules: qr.data };
}

const QUIET = 4;

/** The symbol as SVG: one path of unit squares in a viewBox, so it scales to any print size without blur. */
export function qrSvg(text: string, label: string): string {
  const { modules } = qrMatrix(text);
  const size = modules.length + QUIET * 2;
  let path = "";
  modules.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x + QUIET} ${y + QUIET}h1v1h-1z`;
    }),
  );
  const title = label.replace(/[<>&"]/g, "");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="${size * 4}" height="${size * 4}" shape-rendering="crispEdges"><title>${title}</title><rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
}
