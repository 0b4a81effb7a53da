import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { CHECK_RESULT_TEXT, passNumberText, passState, tokenInScan } from "./pass-status";

const id = "0b8e3c1e-6f6a-4c1a-9d3b-2a1f5e7c9d10";
const token = `p1.${id}.AbCdEfGhIjKlMnOpQrSt_-`;

describe("a card's state", () => {
  it("is valid from its first to its last day inclusive", () => {
    const card = { validFrom: "2026-01-01", validUntil: "2026-12-31", revokedTime: null };
    expect(passState(card, "2025-12-31")).toBe("not_yet_valid");
    expect(passState(card, "2026-01-01")).toBe("valid");
    expect(passState(card, "2026-12-31")).toBe("valid");
    expect(passState(card, "2027-01-01")).toBe("expired");
  });

  it("is revoked whatever its dates, and open ends are unbounded", () => {
    expect(passState({ validFrom: "2026-01-01", validUntil: "2026-12-31", revokedTime: 5 }, "2026-06-01")).toBe("revoked");
    expect(passState({ validFrom: null, validUntil: null, revokedTime: null }, "1999-01-01")).toBe("valid");
  });

  it("says the issue's words", () => {
    expect(CHECK_RESULT_TEXT).toMatchObject({
      valid: "Valid",
      expired: "Expired",
      revoked: "Revoked",
      other_club: "Not a pass of this club",
      unknown: "Not recognised",
    });
  });

  it("property: valid exactly when not revoked and the day is within the dates", () => {
    const day = fc.date({ min: new Date("2020-01-01"), max: new Date("2030-12-31"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    fc.assert(
      fc.property(fc.option(day), fc.option(day), fc.option(fc.nat()), day, (from, until, revoked, today) => {
        const state = passState({ validFrom: from, validUntil: until, revokedTime: revoked }, today);
        const within = (!from || from <= today) && (!until || today <= until);
        expect(state === "valid").toBe(revoked === null && within);
        if (revoked !== null) expect(state).toBe("revoked");
      }),
      fcParams(),
    );
  });
});

describe("a scanned code", () => {
  it("is found in the card's link, alone, encoded or with spaces", () => {
    expect(tokenInScan(`https://club.example.org/passes/${id}?t=${token}`)).toEqual({ token, passId: id, signature: "AbCdEfGhIjKlMnOpQrSt_-" });
    expect(tokenInScan(`  ${token}\n`)?.passId).toBe(id);
    expect(tokenInScan(`https://x/passes/${id}?t=${encodeURIComponent(token).replace(/\./g, "%2E")}`)?.passId).toBe(id);
  });

  it("is nothing when edited or foreign", () => {
    expect(tokenInScan(`${token}x`)).toBeNull();
    expect(tokenInScan(token.slice(0, -1))).toBeNull();
    expect(tokenInScan("HELLO WORLD")).toBeNull();
    expect(tokenInScan("%E0%A4%A")).toBeNull();
  });

  it("prints numbers with six digits at least", () => {
    expect(passNumberText(42)).toBe("000042");
    expect(passNumberText(1234567)).toBe("1234567");
  });
});
