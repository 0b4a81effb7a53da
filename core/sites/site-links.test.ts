import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { languageOf, LINK_MESSAGE, localHref, moveItem, paragraphsOf, siteLinkProblem } from "./site-links";

describe("a link on a site", () => {
  it("is a site path or an https address", () => {
    expect(siteLinkProblem("/events")).toBeNull();
    expect(siteLinkProblem("/")).toBeNull();
    expect(siteLinkProblem("https://example.org/x")).toBeNull();
  });
  it("is never javascript:, data:, http or protocol-relative", () => {
    for (const bad of ["javascript:alert(1)", "data:text/html,x", "http://example.org", "//evil.example", "events", ""])
      expect(siteLinkProblem(bad)).toBe(LINK_MESSAGE);
  });
});

describe("moving a menu item", () => {
  it("swaps it with its neighbour", () => {
    expect(moveItem(["a", "b", "c"], 1, "up")).toEqual(["b", "a", "c"]);
    expect(moveItem(["a", "b", "c"], 1, "down")).toEqual(["a", "c", "b"]);
    expect(moveItem(["a", "b"], 0, "up")).toEqual(["a", "b"]);
    expect(moveItem(["a", "b"], 7, "down")).toEqual(["a", "b"]);
  });
  it("keeps every item, and up then down is where it started", () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { maxLength: 8 }), fc.nat(9), (items, at) => {
        const moved = moveItem(items, at, "up");
        expect([...moved].sort()).toEqual([...items].sort());
        if (at > 0 && at < items.length) expect(moveItem(moved, at - 1, "down")).toEqual(items);
      }),
      fcParams(),
    );
  });
});

describe("a page text", () => {
  it("splits paragraphs on blank lines and reads [label](href) links", () => {
    expect(paragraphsOf("Hello [our events](/events) now.\n\nSecond")).toEqual([
      [{ text: "Hello " }, { text: "our events", href: "/events" }, { text: " now." }],
      [{ text: "Second" }],
    ]);
  });
  it("keeps a link to a refused address as text", () => {
    expect(paragraphsOf("[x](javascript:alert(1))")).toEqual([[{ text: "[x](javascript:alert(1))" }]]);
  });
  it("loses no character outside links", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        const runs = paragraphsOf(text.replace(/\[|\]/g, "")).flat();
        expect(runs.map((r) => r.text).join("")).toBe(
          text
            .replace(/\[|\]/g, "")
            .split(/\n\s*\n/)
            .map((p) => p.trim())
            .join(""),
        );
      }),
      fcParams(),
    );
  });
});

describe("the visitor's language", () => {
  it("is French only when the site offers it and the address asks", () => {
    expect(languageOf(true, "fr")).toBe("fr");
    expect(languageOf(false, "fr")).toBe("en");
    expect(languageOf(true, "de")).toBe("en");
  });
  it("is kept on the site's own links", () => {
    expect(localHref("/about", "fr")).toBe("/about?lang=fr");
    expect(localHref("/events?x=1#a", "fr")).toBe("/events?x=1&lang=fr#a");
    expect(localHref("https://example.org/", "fr")).toBe("https://example.org/");
    expect(localHref("/about", "en")).toBe("/about");
  });
});
