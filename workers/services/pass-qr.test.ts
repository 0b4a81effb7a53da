// The card's QR code decoded back by a decoder written here from ISO/IEC 18004 (not uqr's code): format
// information, function patterns, unmasking, the zigzag read, de-interleaving and a Reed–Solomon check of
// every block, then the byte or alphanumeric segments. A symbol that passes is one a scanner reads.
import { describe, expect, it } from "vitest";
import { qrMatrix, qrSvg } from "./pass-qr";

// GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1.
function gfMul(x: number, y: number): number {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z & 0xff;
}

function rsEcc(data: readonly number[], degree: number): number[] {
  const divisor = new Array<number>(degree).fill(0);
  divisor[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      divisor[j] = gfMul(divisor[j]!, root);
      if (j + 1 < degree) divisor[j]! ^= divisor[j + 1]!;
    }
    root = gfMul(root, 2);
  }
  const result = new Array<number>(degree).fill(0);
  for (const b of data) {
    const factor = b ^ result.shift()!;
    result.push(0);
    divisor.forEach((coef, i) => (result[i]! ^= gfMul(coef, factor)));
  }
  return result;
}

// Error correction M, versions 1–10: codewords in all, ECC per block, blocks.
const TOTAL = [26, 44, 70, 100, 134, 172, 196, 242, 292, 346];
const ECC_M = [10, 16, 26, 18, 24, 16, 18, 22, 22, 26];
const BLOCKS_M = [1, 1, 1, 2, 2, 4, 4, 4, 5, 5];
const LEVEL_BITS = { L: 1, M: 0, Q: 3, H: 2 } as const;

function formatBits(level: number, mask: number): number {
  const data = (level << 3) | mask;
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  return ((data << 10) | rem) ^ 0x5412;
}

function alignmentCentres(version: number): number[] {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const step = Math.ceil((version * 4 + 4) / (count * 2 - 2)) * 2;
  const result = [6];
  for (let pos = version * 4 + 17 - 7; result.length < count; pos -= step) result.splice(1, 0, pos);
  return result;
}

function functionModules(version: number): boolean[][] {
  const size = version * 4 + 17;
  const f = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  const mark = (x0: number, y0: number, w: number, h: number) => {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) if (x >= 0 && y >= 0 && x < size && y < size) f[y]![x] = true;
  };
  mark(0, 0, 9, 9); // finder, separator, format
  mark(size - 8, 0, 8, 9);
  mark(0, size - 8, 9, 8); // includes the dark module
  mark(6, 0, 1, size); // timing
  mark(0, 6, size, 1);
  const centres = alignmentCentres(version);
  const last = centres.length - 1;
  centres.forEach((cx, i) =>
    centres.forEach((cy, j) => {
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
      mark(cx - 2, cy - 2, 5, 5);
    }),
  );
  if (version >= 7) {
    mark(size - 11, 0, 3, 6);
    mark(0, size - 11, 6, 3);
  }
  return f;
}

const MASKS: ((x: number, y: number) => boolean)[] = [
  (x, y) => (x + y) % 2 === 0,
  (_x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

const ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:";

function decode(modules: boolean[][]): { text: string; level: number; mask: number; version: number } {
  const size = modules.length;
  const version = (size - 17) / 4;
  expect(Number.isInteger(version) && version >= 1 && version <= 10).toBe(true);
  const at = (x: number, y: number) => modules[y]![x]!;
  // Format information, first copy, read as the standard lays it out; the nearest valid code word wins.
  let read = 0;
  const bitAt = (i: number, dark: boolean) => (read |= (dark ? 1 : 0) << i);
  for (let i = 0; i <= 5; i++) bitAt(i, at(8, i));
  bitAt(6, at(8, 7));
  bitAt(7, at(8, 8));
  bitAt(8, at(7, 8));
  for (let i = 9; i < 15; i++) bitAt(i, at(14 - i, 8));
  let best = { level: -1, mask: -1, distance: 99 };
  for (let level = 0; level < 4; level++)
    for (let mask = 0; mask < 8; mask++) {
      let d = formatBits(level, mask) ^ read;
      let distance = 0;
      for (; d; d &= d - 1) distance++;
      if (distance < best.distance) best = { level, mask, distance };
    }
  expect(best.distance).toBe(0);
  const isFunction = functionModules(version);
  const bits: number[] = [];
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    for (let vert = 0; vert < size; vert++)
      for (let j = 0; j < 2; j++) {
        const x = right - j;
        const upward = ((right + 1) & 2) === 0;
        const y = upward ? size - 1 - vert : vert;
        if (!isFunction[y]![x]) bits.push((at(x, y) ? 1 : 0) ^ (MASKS[best.mask]!(x, y) ? 1 : 0));
      }
  }
  const total = TOTAL[version - 1]!;
  const codewords = Array.from({ length: total }, (_, i) => bits.slice(i * 8, i * 8 + 8).reduce((a, b) => (a << 1) | b, 0));
  // De-interleave the blocks (the short blocks first, one data codeword fewer) and check each one's ECC.
  const blocks = BLOCKS_M[version - 1]!;
  const eccLen = ECC_M[version - 1]!;
  const shortData = Math.floor(total / blocks) - eccLen;
  const shortBlocks = blocks - (total % blocks);
  const dataLens = Array.from({ length: blocks }, (_, b) => shortData + (b < shortBlocks ? 0 : 1));
  const data: number[][] = dataLens.map(() => []);
  let k = 0;
  for (let i = 0; i <= shortData; i++) for (let b = 0; b < blocks; b++) if (i < dataLens[b]!) data[b]!.push(codewords[k++]!);
  const ecc: number[][] = dataLens.map(() => []);
  for (let i = 0; i < eccLen; i++) for (let b = 0; b < blocks; b++) ecc[b]!.push(codewords[k++]!);
  data.forEach((block, b) => expect(rsEcc(block, eccLen)).toEqual(ecc[b]));
  // Segments: byte (0100) and alphanumeric (0010) until the terminator.
  const stream = data.flat().flatMap((c) => [7, 6, 5, 4, 3, 2, 1, 0].map((i) => (c >>> i) & 1));
  let p = 0;
  const take = (n: number) => {
    let v = 0;
    for (let i = 0; i < n; i++) v = (v << 1) | (stream[p++] ?? 0);
    return v;
  };
  const bytes: number[] = [];
  while (p + 4 <= stream.length) {
    const mode = take(4);
    if (mode === 0) break;
    if (mode === 4) {
      const count = take(version < 10 ? 8 : 16);
      for (let i = 0; i < count; i++) bytes.push(take(8));
    } else if (mode === 2) {
      let count = take(version < 10 ? 9 : 11);
      for (; count >= 2; count -= 2) {
        const pair = take(11);
        bytes.push(ALPHANUMERIC.charCodeAt(Math.floor(pair / 45)), ALPHANUMERIC.charCodeAt(pair % 45));
      }
      if (count === 1) bytes.push(ALPHANUMERIC.charCodeAt(take(6)));
    } else throw new Error(`Unexpected mode ${mode}`);
  }
  return { text: new TextDecoder().decode(new Uint8Array(bytes)), level: best.level, mask: best.mask, version };
}

describe("the card's QR code", () => {
  it("decodes HELLO WORLD at level M", () => {
    const decoded = decode(qrMatrix("HELLO WORLD").modules);
    expect(decoded).toMatchObject({ text: "HELLO WORLD", level: LEVEL_BITS.M, version: 1 });
  });

  it("decodes a signed card link, a version from 1 to 10", () => {
    const url = "https://club.example.org/passes/0b8e3c1e-6f6a-4c1a-9d3b-2a1f5e7c9d10?t=p1.0b8e3c1e-6f6a-4c1a-9d3b-2a1f5e7c9d10.AbCdEfGhIjKlMnOpQrSt_-";
    const { version, modules } = qrMatrix(url);
    const decoded = decode(modules);
    expect(decoded.text).toBe(url);
    expect(decoded.level).toBe(LEVEL_BITS.M);
    expect(version).toBeGreaterThanOrEqual(1);
    expect(version).toBeLessThanOrEqual(10);
  });

  it("decodes texts of every length up to a long link, with every mask the encoder picks", () => {
    const masks = new Set<number>();
    for (let n = 1; n <= 200; n += 7) {
      const text = `https://x.org/${"ab9_-.~".repeat(40).slice(0, n)}`;
      const decoded = decode(qrMatrix(text).modules);
      expect(decoded.text).toBe(text);
      masks.add(decoded.mask);
    }
    expect(masks.size).toBeGreaterThan(1);
  });

  it("is a real check: one flipped data module fails the decoder", () => {
    const modules = qrMatrix("HELLO WORLD").modules.map((row) => [...row]);
    modules[20]![20] = !modules[20]![20];
    expect(() => decode(modules)).toThrow();
  });

  it("draws the symbol as SVG with its quiet zone and no markup from the label", () => {
    const svg = qrSvg("HELLO WORLD", 'Card <b>"x"</b>');
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 29 29"/);
    expect(svg).toContain("<title>Card bx/b</title>");
    expect(svg).toContain("M4 4h1v1h-1z");
  });
});
