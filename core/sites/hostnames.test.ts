import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { checkClubHostname, HOSTNAME_MESSAGES, isUnder, normaliseDomain, platformDomainMessage, wwwPartnerOf } from "./hostnames";

const PLATFORM = ["startline.example", "admin.startline.example"];
const refused = (input: string) => {
  const checked = checkClubHostname(input, PLATFORM);
  return checked.ok ? null : checked.message;
};

describe("a club's domain", () => {
  it("is lowercased, loses a trailing dot and spaces, and is kept in ASCII (punycode)", () => {
    expect(checkClubHostname("  Club.Example.ORG. ", PLATFORM)).toEqual({ ok: true, hostname: "club.example.org" });
    expect(checkClubHostname("Bücher.example", PLATFORM)).toEqual({ ok: true, hostname: "xn--bcher-kva.example" });
    expect(checkClubHostname("xn--bcher-kva.example", PLATFORM)).toEqual({ ok: true, hostname: "xn--bcher-kva.example" });
    expect(checkClubHostname("www.ski-club.ca", PLATFORM)).toEqual({ ok: true, hostname: "www.ski-club.ca" });
  });

  it("refuses schemes, paths, ports, wildcards and addresses with words that say what to fix", () => {
    expect(refused("")).toBe(HOSTNAME_MESSAGES.empty);
    expect(refused("https://club.example.org")).toBe(HOSTNAME_MESSAGES.scheme);
    expect(refused("club.example.org/races")).toBe(HOSTNAME_MESSAGES.path);
    expect(refused("club.example.org?x=1")).toBe(HOSTNAME_MESSAGES.path);
    expect(refused("club.example.org:8443")).toBe(HOSTNAME_MESSAGES.port);
    expect(refused("*.example.org")).toBe(HOSTNAME_MESSAGES.wildcard);
    expect(refused("192.168.1.10")).toBe(HOSTNAME_MESSAGES.ip);
    expect(refused("0x7f.1")).toBe(HOSTNAME_MESSAGES.ip);
    expect(refused("[::1]")).toBe(HOSTNAME_MESSAGES.ip);
    expect(refused("::1")).toBe(HOSTNAME_MESSAGES.ip);
    expect(refused("localhost")).toBe(HOSTNAME_MESSAGES.noDot);
    expect(refused("club")).toBe(HOSTNAME_MESSAGES.noDot);
    expect(refused("under_score.example.org")).toBe(HOSTNAME_MESSAGES.invalid);
    expect(refused("-club.example.org")).toBe(HOSTNAME_MESSAGES.invalid);
    expect(refused("club..example.org")).toBe(HOSTNAME_MESSAGES.invalid);
    expect(refused("club example.org")).toBe(HOSTNAME_MESSAGES.invalid);
    expect(refused("me@example.org")).toBe(HOSTNAME_MESSAGES.invalid);
    expect(refused("xn--a.example")).toBe(HOSTNAME_MESSAGES.invalid);
    expect(refused(`${"a".repeat(64)}.example.org`)).toBe(HOSTNAME_MESSAGES.tooLong);
    expect(refused(`${"abcdefghi.".repeat(26)}org`)).toBe(HOSTNAME_MESSAGES.tooLong);
  });

  it("refuses the platform's own names and every name under them", () => {
    expect(refused("startline.example")).toBe(platformDomainMessage("startline.example"));
    expect(refused("Demo.Startline.Example")).toBe(platformDomainMessage("startline.example"));
    expect(refused("admin.startline.example")).toBe(platformDomainMessage("startline.example"));
    expect(refused("notstartline.example")).toBeNull();
    // Locally every *.localhost name is the platform's; localhost itself has no dot.
    expect(checkClubHostname("demo.localhost", ["localhost", "admin.localhost"])).toEqual({ ok: false, message: platformDomainMessage("localhost") });
  });

  it("pairs www and bare names", () => {
    expect(wwwPartnerOf("www.example.org")).toBe("example.org");
    expect(wwwPartnerOf("example.org")).toBe("www.example.org");
    expect(wwwPartnerOf("www.org")).toBe("www.www.org");
    expect(isUnder("a.b.example", "b.example")).toBe(true);
    expect(isUnder("ab.example", "b.example")).toBe(false);
  });
});

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?$/);
const tld = fc.stringMatching(/^[a-z]{2,8}$/);
const domain = fc.tuple(fc.array(label, { minLength: 1, maxLength: 4 }), tld).map(([labels, top]) => [...labels, top].join("."));

describe("a club's domain, for any input", () => {
  it("accepts every well-formed name as itself, however it is cased or dotted", () => {
    fc.assert(
      fc.property(domain, fc.boolean(), fc.boolean(), (name, upper, dot) => {
        const typed = `${upper ? name.toUpperCase() : name}${dot ? "." : ""}`;
        expect(normaliseDomain(typed)).toEqual({ ok: true, hostname: name });
      }),
      fcParams(),
    );
  });

  it("gives back only names it would accept again unchanged, and never a platform name", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (input) => {
        const checked = checkClubHostname(input, PLATFORM);
        if (!checked.ok) return;
        expect(checked.hostname).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
        expect(checked.hostname.length).toBeLessThanOrEqual(253);
        expect(checkClubHostname(checked.hostname, PLATFORM)).toEqual(checked);
        expect(PLATFORM.some((p) => isUnder(checked.hostname, p))).toBe(false);
      }),
      fcParams(),
    );
  });

  it("answers any text at all, international ones included, without throwing", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: "binary", maxLength: 40 }),
          fc.string({ unit: "grapheme", maxLength: 40 }).map((s) => `${s}.example`),
        ),
        (input) => {
          const checked = checkClubHostname(input, PLATFORM);
          if (checked.ok) expect(checked.hostname).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
          else expect(Object.values(HOSTNAME_MESSAGES)).toContain(checked.message);
        },
      ),
      fcParams(),
    );
    expect(checkClubHostname("a".repeat(5000), PLATFORM)).toEqual({ ok: false, message: HOSTNAME_MESSAGES.tooLong });
  });

  it("refuses anything with a scheme, a path or a port in front of or after a good name", () => {
    fc.assert(
      fc.property(domain, fc.constantFrom("http://", "https://", "ftp://"), fc.constantFrom("", "/", "/races", ":8080"), (name, scheme, tail) => {
        expect(normaliseDomain(`${scheme}${name}${tail}`).ok).toBe(false);
        if (tail !== "") expect(normaliseDomain(`${name}${tail}`).ok).toBe(false);
      }),
      fcParams(),
    );
  });
});
