import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { fcParams } from "../testing/fast-check";
import { checkImage, checkLogo, IMAGE_LIMITS, IMAGE_MESSAGES, imageKindOf, isSiteMedia, MAX_LOGO_BYTES, MAX_PICTURE_BYTES, MEDIA_PATH } from "./images";

const bytes = (...values: (number | string)[]) => new Uint8Array(values.flatMap((v) => (typeof v === "string" ? [...v].map((c) => c.charCodeAt(0)) : [v])));

describe("uploaded site images", () => {
  it("knows PNG, JPEG, WebP and GIF by their first bytes", () => {
    expect(imageKindOf(bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a, 0))?.contentType).toBe("image/png");
    expect(imageKindOf(bytes(0xff, 0xd8, 0xff, 0xe0))?.extension).toBe("jpg");
    expect(imageKindOf(bytes("RIFF", 0, 0, 0, 0, "WEBPVP8 "))?.contentType).toBe("image/webp");
    expect(imageKindOf(bytes("GIF89a"))?.extension).toBe("gif");
  });

  it("refuses SVG, HTML and text whatever they are called", () => {
    expect(imageKindOf(bytes('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))).toBeNull();
    expect(checkLogo(bytes("<html>"), 6)).toEqual({ ok: false, message: IMAGE_MESSAGES.notImage });
  });

  it("refuses an empty file and one over 512 KB", () => {
    expect(checkLogo(new Uint8Array(), 0)).toEqual({ ok: false, message: IMAGE_MESSAGES.missing });
    expect(checkLogo(bytes(0xff, 0xd8, 0xff), MAX_LOGO_BYTES + 1)).toEqual({ ok: false, message: "A logo is at most 512 KB" });
    expect(checkLogo(bytes(0xff, 0xd8, 0xff), MAX_LOGO_BYTES).ok).toBe(true);
  });

  it("serves only content-addressed paths", () => {
    expect(MEDIA_PATH.test(`/media/sites/6d1f3c2a-0b7e-4c5d-9a41-1e2f3a4b5c01/${"a".repeat(64)}.png`)).toBe(true);
    expect(MEDIA_PATH.test("/media/sites/../../secrets.png")).toBe(false);
    expect(MEDIA_PATH.test(`/media/sites/6d1f3c2a-0b7e-4c5d-9a41-1e2f3a4b5c01/${"a".repeat(64)}.svg`)).toBe(false);
  });
});

describe("banners and pictures", () => {
  const jpeg = bytes(0xff, 0xd8, 0xff, 0xe0);
  it("takes a banner or picture up to 2 MB and says which it refused", () => {
    expect(checkImage(jpeg, MAX_PICTURE_BYTES, "banner").ok).toBe(true);
    expect(checkImage(jpeg, MAX_PICTURE_BYTES + 1, "banner")).toEqual({ ok: false, message: "A banner is at most 2 MB" });
    expect(checkImage(jpeg, MAX_PICTURE_BYTES + 1, "image")).toEqual({ ok: false, message: "An image is at most 2 MB" });
    expect(checkImage(bytes("%PDF-1.7"), 8, "banner")).toEqual({ ok: false, message: "A banner must be a PNG, JPEG, WebP or GIF image" });
    expect(checkImage(jpeg, MAX_LOGO_BYTES + 1, "logo")).toEqual({ ok: false, message: "A logo is at most 512 KB" });
  });

  it("never accepts a file over its purpose's limit, whatever its bytes", () => {
    const purposes = ["logo", "banner", "image"] as const;
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 32 }), fc.nat({ max: 4 * 1024 * 1024 }), fc.constantFrom(...purposes), (head, size, purpose) => {
        const checked = checkImage(head, size, purpose);
        if (!checked.ok) return;
        expect(size).toBeGreaterThan(0);
        expect(size).toBeLessThanOrEqual(IMAGE_LIMITS[purpose].maxBytes);
        expect(imageKindOf(head)).not.toBeNull();
      }),
      fcParams(),
    );
  });

  it("knows a site's own uploads from another site's", () => {
    const site = "6d1f3c2a-0b7e-4c5d-9a41-1e2f3a4b5c01";
    expect(isSiteMedia(`/media/sites/${site}/${"b".repeat(64)}.jpg`, site)).toBe(true);
    expect(isSiteMedia(`/media/sites/${"0".repeat(8)}-0b7e-4c5d-9a41-1e2f3a4b5c01/${"b".repeat(64)}.jpg`, site)).toBe(false);
    expect(isSiteMedia("https://example.com/a.jpg", site)).toBe(false);
  });
});
