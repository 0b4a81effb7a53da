import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../../core/testing/fast-check";
import { editBlockList } from "./block-list";

const blank = (type: string) => ({ type, text: "" });
const TYPES = ["header", "text"];

describe("a block list edited without JavaScript", () => {
  it("adds a known type up to the limit, moves up, removes, and leaves other intents to the page", () => {
    const blocks = [
      { type: "header", text: "A" },
      { type: "text", text: "B" },
    ];
    expect(editBlockList(blocks, "add:text", TYPES, blank, 3)).toEqual([...blocks, { type: "text", text: "" }]);
    expect(editBlockList(blocks, "add:script", TYPES, blank, 3)).toBeNull();
    expect(editBlockList(blocks, "add:text", TYPES, blank, 2)).toBeNull();
    expect(editBlockList(blocks, "up:1", TYPES, blank, 3)).toEqual([blocks[1], blocks[0]]);
    expect(editBlockList(blocks, "up:0", TYPES, blank, 3)).toBeNull();
    expect(editBlockList(blocks, "remove:0", TYPES, blank, 3)).toEqual([blocks[1]]);
    expect(editBlockList(blocks, "remove:9", TYPES, blank, 3)).toBeNull();
    expect(editBlockList(blocks, "save", TYPES, blank, 3)).toBeNull();
  });

  it("moving a block up keeps every block, and removing takes exactly one", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 3 }), { maxLength: 8 }), fc.nat(9), (texts, at) => {
        const blocks = texts.map((text) => ({ type: "text", text }));
        const moved = editBlockList(blocks, `up:${at}`, TYPES, blank, 50);
        if (moved) expect([...moved].sort((a, b) => a.text.localeCompare(b.text))).toEqual([...blocks].sort((a, b) => a.text.localeCompare(b.text)));
        const removed = editBlockList(blocks, `remove:${at}`, TYPES, blank, 50);
        if (removed) expect(removed).toHaveLength(blocks.length - 1);
        else expect(at).toBeGreaterThanOrEqual(blocks.length);
      }),
      fcParams(),
    );
  });
});
