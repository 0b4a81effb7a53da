import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { referencedUploads, unreferencedUploads, UPLOAD_GRACE_MS } from "./upload-sweep";

const SITE = "6d1f3c2a-0b7e-4c5d-9a41-1e2f3a4b5c01";
const OTHER = "7e2f3c2a-0b7e-4c5d-9a41-1e2f3a4b5c02";
const key = (site: string, c: string, ext = "png") => `media/sites/${site}/${c.repeat(64)}.${ext}`;
const NOW = Date.UTC(2026, 10, 27, 12);
const OLD = NOW - UPLOAD_GRACE_MS - 1;

describe("referencedUploads", () => {
  it("finds this site's uploads as paths, whole addresses and inside JSON, never another site's", () => {
    const config = JSON.stringify({ logoUrl: `/${key(SITE, "a")}`, home: [{ type: "image", image_url: `/${key(SITE, "b", "jpg")}` }] });
    const mail = JSON.stringify([{ type: "image", image_url: `https://club.example.org/${key(SITE, "c", "webp")}` }]);
    const escaped = `[{"type":"image","image_url":"\\/media\\/sites\\/${SITE}\\/${"d".repeat(64)}.gif"}]`;
    const found = referencedUploads([config, mail, escaped, `/${key(OTHER, "e")}`, null, undefined, ""], SITE);
    expect([...found].sort()).toEqual([key(SITE, "a"), key(SITE, "b", "jpg"), key(SITE, "c", "webp"), key(SITE, "d", "gif")]);
  });

  it("ignores what only looks like an upload (another extension, a short hash)", () => {
    expect(referencedUploads([`/media/sites/${SITE}/${"a".repeat(64)}.svg`, `/media/sites/${SITE}/abc.png`], SITE).size).toBe(0);
  });
});

describe("unreferencedUploads", () => {
  it("sweeps an old file nothing refers to, and keeps a referenced one, a fresh one and keys we never write", () => {
    const stored = [
      { key: key(SITE, "a"), uploaded: OLD },
      { key: key(SITE, "b"), uploaded: OLD },
      { key: key(SITE, "c"), uploaded: NOW - 60_000 },
      { key: `media/sites/${SITE}/notes.txt`, uploaded: OLD },
      { key: key(OTHER, "d"), uploaded: OLD },
    ];
    expect(unreferencedUploads(stored, new Set([key(SITE, "a")]), SITE, NOW)).toEqual([key(SITE, "b")]);
  });

  it("keeps a file exactly at the end of its grace period", () => {
    expect(unreferencedUploads([{ key: key(SITE, "a"), uploaded: NOW - UPLOAD_GRACE_MS }], new Set(), SITE, NOW)).toEqual([]);
  });

  it("never sweeps a referenced or fresh file, nor one of another site, and is idempotent", () => {
    const hex = fc.constantFrom(..."0123456789abcdef".split(""));
    const file = fc.record({
      site: fc.constantFrom(SITE, OTHER),
      c: hex,
      ext: fc.constantFrom("png", "jpg", "webp", "gif"),
      age: fc.integer({ min: 0, max: 3 * UPLOAD_GRACE_MS }),
    });
    fc.assert(
      // R2 holds one object per key.
      fc.property(fc.uniqueArray(file, { maxLength: 30, selector: (f) => key(f.site, f.c, f.ext) }), fc.array(hex, { maxLength: 8 }), (files, mentioned) => {
        const stored = files.map((f) => ({ key: key(f.site, f.c, f.ext), uploaded: NOW - f.age }));
        const referenced = referencedUploads(
          mentioned.map((c) => `/${key(SITE, c)}`),
          SITE,
        );
        const swept = unreferencedUploads(stored, referenced, SITE, NOW);
        for (const k of swept) {
          expect(referenced.has(k)).toBe(false);
          expect(k.startsWith(`media/sites/${SITE}/`)).toBe(true);
          expect(stored.filter((s) => s.key === k).every((s) => NOW - s.uploaded > UPLOAD_GRACE_MS)).toBe(true);
        }
        const left = stored.filter((s) => !swept.includes(s.key));
        expect(unreferencedUploads(left, referenced, SITE, NOW)).toEqual([]);
      }),
      fcParams(),
    );
  });
});
