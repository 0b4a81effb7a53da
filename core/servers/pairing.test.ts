import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { isUpcomingForBox, RECENT_RACE_MS } from "./box-races";
import {
  formatUserCode,
  MAX_POLL_INTERVAL_S,
  normaliseUserCode,
  PAIRING_MESSAGES,
  pairingRefusal,
  pairingStateOf,
  pollOutcome,
  pollsTooFast,
  serverStatusText,
  SLOW_DOWN_STEP_S,
  slowedInterval,
  USER_CODE_ALPHABET,
  USER_CODE_LENGTH,
  userCodeFrom,
} from "./pairing";

const times = { created: 1_000, expires: 601_000, completed: null, cancelled: null, delivered: null };
const randomBytes = (count: number) => crypto.getRandomValues(new Uint8Array(count));

describe("user codes", () => {
  it("are eight letters of the unambiguous alphabet, shown in two groups", () => {
    const code = userCodeFrom(randomBytes);
    expect(code).toMatch(new RegExp(`^[${USER_CODE_ALPHABET}]{${USER_CODE_LENGTH}}$`));
    expect(formatUserCode("BCDFGHJK")).toBe("BCDF-GHJK");
    expect(USER_CODE_ALPHABET).not.toMatch(/[AEIOU01]/);
  });

  it("are read back as typed: lower case, spaces and dashes", () => {
    expect(normaliseUserCode(" bcdf-ghjk ")).toBe("BCDFGHJK");
    expect(normaliseUserCode("BCDF GHJK")).toBe("BCDFGHJK");
    expect(normaliseUserCode("BCDF-GHJ")).toBeNull();
    expect(normaliseUserCode("ABCD-EFGH")).toBeNull();
    expect(normaliseUserCode("")).toBeNull();
  });

  it("skips bytes that would favour some letters", () => {
    // 240 and above are rejected (256 % 20 = 16); the next bytes are used instead.
    const feed = [new Uint8Array([255, 250, 240, 0, 1, 2, 3, 4, 5, 6]), new Uint8Array([7, 8, 9, 10, 11, 12, 13, 14])];
    expect(userCodeFrom(() => feed.shift()!)).toBe("BCDFGHJK");
  });

  it("any code, formatted and typed back in either case, is itself (property)", () => {
    const letter = fc.constantFrom(...USER_CODE_ALPHABET.split(""));
    fc.assert(
      fc.property(fc.array(letter, { minLength: USER_CODE_LENGTH, maxLength: USER_CODE_LENGTH }), fc.boolean(), (letters, lower) => {
        const code = letters.join("");
        const shown = formatUserCode(code);
        expect(normaliseUserCode(lower ? shown.toLowerCase() : shown)).toBe(code);
      }),
      fcParams(),
    );
  });

  it("a code is made only of the alphabet whatever the random bytes (property)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), (bytes) => {
        let offset = 0;
        // Cycles through the drawn bytes with a twist so every round offers at least one usable byte.
        const code = userCodeFrom((count) => bytes.slice(offset, (offset += count)).map((b, i) => (b >= 240 ? i : b)));
        expect(normaliseUserCode(code)).toBe(code);
      }),
      fcParams(),
    );
  });
});

describe("a pairing request's state", () => {
  it("is pending until it expires, ten minutes after it was made", () => {
    expect(pairingStateOf(times, 600_999)).toBe("pending");
    expect(pairingStateOf(times, 601_000)).toBe("expired");
  });

  it("is final once approved, delivered or cancelled, whatever the time", () => {
    expect(pairingStateOf({ ...times, completed: 5_000 }, 10_000_000)).toBe("approved");
    expect(pairingStateOf({ ...times, completed: 5_000, delivered: 6_000 }, 10_000_000)).toBe("delivered");
    expect(pairingStateOf({ ...times, cancelled: 5_000 }, 2_000)).toBe("cancelled");
  });

  it("names what to do when a code cannot be approved", () => {
    expect(pairingRefusal("pending")).toBeNull();
    expect(pairingRefusal("expired")).toBe(PAIRING_MESSAGES.expired);
    expect(pairingRefusal("cancelled")).toBe(PAIRING_MESSAGES.cancelled);
    expect(pairingRefusal("approved")).toBe(PAIRING_MESSAGES.used);
    expect(pairingRefusal("delivered")).toBe(PAIRING_MESSAGES.used);
  });

  it("never turns pending again once expired (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 10_000_000 }), (a, b) => {
        const [early, late] = a <= b ? [a, b] : [b, a];
        if (pairingStateOf(times, early) === "expired") expect(pairingStateOf(times, late)).toBe("expired");
      }),
      fcParams(),
    );
  });
});

describe("polling", () => {
  it("is too fast within the interval of the last poll", () => {
    expect(pollsTooFast(null, 5, 0)).toBe(false);
    expect(pollsTooFast(10_000, 5, 14_999)).toBe(true);
    expect(pollsTooFast(10_000, 5, 15_000)).toBe(false);
  });

  it("slows by five seconds each time, up to a minute", () => {
    expect(slowedInterval(5)).toBe(10);
    expect(slowedInterval(MAX_POLL_INTERVAL_S)).toBe(MAX_POLL_INTERVAL_S);
  });
});

describe("the club's list", () => {
  it("says whether a box is revoked, waiting for its first heartbeat or active", () => {
    expect(serverStatusText({ isActive: false, lastSeenTime: 5 })).toBe("Revoked");
    expect(serverStatusText({ isActive: true, lastSeenTime: null })).toBe("Paired, not seen yet");
    expect(serverStatusText({ isActive: true, lastSeenTime: 5 })).toBe("Active");
  });

  it("offers a box the races that have not ended or started within the last day", () => {
    const now = 10 * RECENT_RACE_MS;
    expect(isUpcomingForBox({ startTime: now + 1, endTime: null }, now)).toBe(true);
    expect(isUpcomingForBox({ startTime: now - RECENT_RACE_MS, endTime: null }, now)).toBe(true);
    expect(isUpcomingForBox({ startTime: now - RECENT_RACE_MS - 1, endTime: null }, now)).toBe(false);
    expect(isUpcomingForBox({ startTime: now - 3 * RECENT_RACE_MS, endTime: now + 1 }, now)).toBe(true);
  });
});

describe("the polling rule's one home", () => {
  it("answers slow_down and grows the interval only for a poll sooner than the interval, never past the cap", () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 0, max: 10_000_000 })),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 120_000 }),
        (last, interval, gap) => {
          const now = (last ?? 0) + gap;
          const outcome = pollOutcome(last, interval, now);
          expect(outcome.slowDown).toBe(last !== null && gap < interval * 1000);
          expect(outcome.interval).toBe(outcome.slowDown ? Math.min(MAX_POLL_INTERVAL_S, interval + SLOW_DOWN_STEP_S) : interval);
        },
      ),
      fcParams(),
    );
  });
});
