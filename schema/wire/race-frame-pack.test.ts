import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PACK_MIN_CHARS, packFrame, unpackFrame } from "./race-frame-pack";

describe("race frame packing", () => {
  it("leaves a frame under the threshold as text", async () => {
    const frame = JSON.stringify({ type: "rows", rows: [] });
    expect(await packFrame(frame)).toBe(frame);
    expect(await packFrame("x".repeat(PACK_MIN_CHARS - 1))).toBe("x".repeat(PACK_MIN_CHARS - 1));
  });

  it("deflates a long frame to fewer bytes, and unpacks it to the same text", async () => {
    const frame = JSON.stringify({ type: "snapshot", rows: Array.from({ length: 200 }, (_, i) => ({ racerId: `r${i}`, name: `Racer ${i}`, time: i * 1000 })) });
    const packed = await packFrame(frame);
    expect(packed).toBeInstanceOf(Uint8Array);
    expect((packed as Uint8Array).byteLength).toBeLessThan(frame.length / 4);
    expect(await unpackFrame(packed)).toBe(frame);
    expect(await unpackFrame((packed as Uint8Array).buffer)).toBe(frame);
    expect(await unpackFrame(new Blob([packed as Uint8Array<ArrayBuffer>]))).toBe(frame);
  });

  it("round-trips any text, including characters beyond ASCII", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", minLength: 0, maxLength: 4_000 }), async (text) => {
        expect(await unpackFrame(await packFrame(text))).toBe(text);
      }),
      { numRuns: 60 },
    );
  });

  it("reads bytes that are not deflate data, and values that are not frames, as nothing", async () => {
    expect(await unpackFrame(new Uint8Array([0xff, 0xff, 0xff, 0xff]))).toBeNull();
    expect(await unpackFrame(42)).toBeNull();
    expect(await unpackFrame(null)).toBeNull();
  });
});
