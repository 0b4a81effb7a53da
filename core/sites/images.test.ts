import { describe, expect, it } from "vitest";
import { checkLogo, IMAGE_MESSAGES, imageKindOf, MAX_LOGO_BYTES, MEDIA_PATH } from "./images";

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
