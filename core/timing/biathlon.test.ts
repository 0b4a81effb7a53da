import { describe, expect, it } from "vitest";
import {
  BIATHLON_DEFAULT_LAPS,
  BIATHLON_DEFAULT_RANGE,
  BIATHLON_DEFAULT_RELAY_MEMBERS,
  BIATHLON_MIN_PENALTY_LOOP,
  BIATHLON_PENALTY_PER_MISS,
  BIATHLON_RESULT_CALCULATION_LABELS,
  BIATHLON_TIMES_TO_DISPLAY_LABELS,
  biathlonPenalty,
  biathlonSetupProblems,
  RANGE_DEVICE_KIND,
  biathlonTimes,
  defaultRangePattern,
  missesFromDicts,
  missingLoops,
  penaltyLoopsDone,
  validateBiathlonLaps,
  validateBiathlonRelayMembers,
  validateRangePattern,
} from "./biathlon";
import { at, seconds } from "./test-races";

describe("biathlon constants", () => {
  it("holds the spec's defaults", () => {
    expect(BIATHLON_DEFAULT_LAPS).toBe(3);
    expect(BIATHLON_DEFAULT_RANGE).toBe("PPSS");
    expect(BIATHLON_DEFAULT_RELAY_MEMBERS).toBe(4);
    expect(BIATHLON_PENALTY_PER_MISS).toBe(60_000_000);
    expect(BIATHLON_MIN_PENALTY_LOOP).toBe(5_000_000);
  });

  it("labels the result calculations and the times to display", () => {
    expect(Object.values(BIATHLON_RESULT_CALCULATION_LABELS)).toEqual(["Total time", "Ski time only", "Range time only"]);
    expect(Object.values(BIATHLON_TIMES_TO_DISPLAY_LABELS)).toEqual(["Lap times", "Mid-lap splits", "Total time at each point", "Finish only"]);
  });
});

describe("validateBiathlonLaps", () => {
  it("accepts 2 laps and more", () => {
    expect(validateBiathlonLaps("2")).toBe(2);
    expect(validateBiathlonLaps(5)).toBe(5);
  });

  it("says Must be a Number for anything else", () => {
    for (const bad of ["", "three", null, undefined]) expect(validateBiathlonLaps(bad)).toEqual({ error: "Must be a Number" });
  });

  it("refuses fewer than 2 laps with the spec's message", () => {
    for (const bad of ["1", 0, "-3", "1.5"]) expect(validateBiathlonLaps(bad)).toEqual({ error: "Biathlon races must have at least 2 laps" });
  });

  it("refuses a fraction of a lap", () => {
    expect(validateBiathlonLaps("2.5")).toEqual({ error: "Must be a whole number" });
  });
});

describe("validateBiathlonRelayMembers", () => {
  it("accepts 2 racers and more", () => {
    expect(validateBiathlonRelayMembers("4")).toBe(4);
    expect(validateBiathlonRelayMembers(2)).toBe(2);
  });

  it("refuses fewer than 2 racers, and non-numbers", () => {
    expect(validateBiathlonRelayMembers("1")).toEqual({ error: "Biathlon team relays must have at least 2 racers" });
    expect(validateBiathlonRelayMembers("four")).toEqual({ error: "Must be a Number" });
  });
});

describe("validateRangePattern", () => {
  it("accepts P and S in any case and stores uppercase", () => {
    expect(validateRangePattern("ppss")).toBe("PPSS");
    expect(validateRangePattern(" pS ")).toBe("PS");
  });

  it("refuses other letters and a blank pattern", () => {
    for (const bad of ["PPSX", "P S", "12", "", null]) expect(validateRangePattern(bad)).toEqual({ error: "Must be some combination of P and S" });
  });
});

describe("defaultRangePattern", () => {
  it("cuts PPSS to laps minus 1 letters", () => {
    expect(defaultRangePattern(2)).toBe("P");
    expect(defaultRangePattern(3)).toBe("PP");
    expect(defaultRangePattern(4)).toBe("PPS");
    expect(defaultRangePattern(5)).toBe("PPSS");
  });

  it("repeats the pattern above 5 laps", () => {
    expect(defaultRangePattern(6)).toBe("PPSSP");
    expect(defaultRangePattern(9)).toBe("PPSSPPSS");
    expect(defaultRangePattern(10)).toBe("PPSSPPSSP");
  });

  it("has no shooting below 2 laps", () => {
    expect(defaultRangePattern(1)).toBe("");
    expect(defaultRangePattern(0)).toBe("");
  });
});

describe("biathlonPenalty", () => {
  it("adds 60 s per miss for time penalties: 1 + 2 misses is 3:00", () => {
    expect(biathlonPenalty({ type: "time", missesPerShooting: [1, 2] })).toBe(seconds(180));
  });

  it("uses the course's penalty per miss when given", () => {
    expect(biathlonPenalty({ type: "time", missesPerShooting: [0, 3, 1, 0], perMiss: seconds(45) })).toBe(seconds(180));
  });

  it("adds no time for penalty laps: the loops are skied", () => {
    expect(biathlonPenalty({ type: "lap", missesPerShooting: [1, 2] })).toBe(0);
  });

  it("refuses a negative or fractional miss count", () => {
    expect(() => biathlonPenalty({ type: "time", missesPerShooting: [-1] })).toThrow(RangeError);
    expect(() => biathlonPenalty({ type: "time", missesPerShooting: [0.5] })).toThrow(RangeError);
  });
});

describe("penaltyLoopsDone", () => {
  it("counts a read closer than 5 s to the last counted loop as the same loop", () => {
    // 660 counts; 662 is 2 s later (same loop); 685 counts; 689.999999 is just under 5 s (same); 690 is exactly 5 s (new).
    const reads = [at(690), at(660), at(662), at(685), at(689.999999)];
    expect(penaltyLoopsDone(reads)).toBe(3);
  });

  it("uses the course's minimum loop time", () => {
    expect(penaltyLoopsDone([at(660), at(680), at(700)], seconds(25))).toBe(2);
    expect(penaltyLoopsDone([])).toBe(0);
  });
});

describe("missingLoops", () => {
  it("owes the misses not yet skied, never less than 0", () => {
    expect(missingLoops(3, 1)).toBe(2);
    expect(missingLoops(3, 3)).toBe(0);
    expect(missingLoops(1, 2)).toBe(0);
  });
});

describe("missesFromDicts", () => {
  it("reads misses from each lap_{n}_biathlon_dict, 0 when absent or not a count", () => {
    expect(missesFromDicts([{ misses: 1 }, { misses: 2 }, {}, { misses: -1 }, { misses: 1.5 }])).toEqual([1, 2, 0, 0, 0]);
  });
});

describe("biathlonTimes", () => {
  // 3 laps, range PP: lap 1 ends at 10:00, shooting 1 from 10:10 to 10:50, lap 2 ends at 21:00,
  // shooting 2 from 21:10 to 21:55.5, lap 3 (the finish) at 31:40. Misses 1 and 2.
  const race = {
    start: at(0),
    lapTimes: [at(600), at(1260), at(1900)],
    rangeIn: [at(610), at(1270)],
    rangeOut: [at(650), at(1315.5)],
  };

  it("time penalty: total 31:40 + 3:00 = 34:40, range 40 + 45.5 = 85.5 s, ski 34:40 − 1:25.5 = 33:14.5", () => {
    const penalty = biathlonPenalty({ type: "time", missesPerShooting: [1, 2] });
    expect(biathlonTimes({ ...race, penalty })).toEqual({ total: seconds(2080), range: seconds(85.5), ski: seconds(1994.5) });
  });

  it("penalty laps: total 31:40 (the loops are in it), range 85.5 s, ski 30:14.5", () => {
    expect(biathlonTimes({ ...race, penalty: 0 })).toEqual({ total: seconds(1900), range: seconds(85.5), ski: seconds(1814.5) });
  });

  it("has no total (so no ski time) until every lap is done, but a range time so far", () => {
    expect(biathlonTimes({ ...race, lapTimes: [at(600), at(1260), null], penalty: 0 })).toEqual({ total: null, range: seconds(85.5), ski: null });
    expect(biathlonTimes({ ...race, start: null, penalty: 0 })).toMatchObject({ total: null, ski: null });
  });

  it("has no range time (so no ski time) when a range read is missing or out of order", () => {
    expect(biathlonTimes({ ...race, rangeOut: [at(650), null], penalty: 0 })).toEqual({ total: seconds(1900), range: null, ski: null });
    expect(biathlonTimes({ ...race, rangeOut: [at(650)], penalty: 0 })).toMatchObject({ range: null });
    expect(biathlonTimes({ ...race, rangeOut: [at(605), at(1315.5)], penalty: 0 })).toMatchObject({ range: null });
  });
});

describe("biathlonSetupProblems", () => {
  const setup = { penaltyType: "lap" as const, lapCount: 3, isRelay: false, relayMemberCount: null, penaltyDeviceId: null, rangeDeviceId: null };
  const devices = [
    { id: "pad", type: "webkeypad" },
    { id: "mat", type: "impinj" },
  ];

  it("accepts the defaults and ignores races that are not a biathlon", () => {
    expect(biathlonSetupProblems(setup, devices)).toEqual({});
    expect(biathlonSetupProblems({ ...setup, penaltyType: null, lapCount: 1 }, devices)).toEqual({});
  });

  it("refuses fewer than 2 laps and relays of fewer than 2 racers in the spec's words", () => {
    expect(biathlonSetupProblems({ ...setup, lapCount: 1, isRelay: true, relayMemberCount: 1 }, devices)).toEqual({
      lap_count: "Biathlon races must have at least 2 laps",
      relay_member_count: "Biathlon team relays must have at least 2 racers",
    });
    expect(biathlonSetupProblems({ ...setup, isRelay: true, relayMemberCount: 2 }, devices)).toEqual({});
  });

  it("takes range data only from a keypad, android keypad, summit or generic device", () => {
    expect(biathlonSetupProblems({ ...setup, rangeDeviceId: "pad" }, devices)).toEqual({});
    expect(biathlonSetupProblems({ ...setup, rangeDeviceId: "mat" }, devices)).toEqual({ biathlon_range_device: RANGE_DEVICE_KIND });
    expect(biathlonSetupProblems({ ...setup, rangeDeviceId: "gone", penaltyDeviceId: "gone" }, devices)).toEqual({
      biathlon_range_device: "No such device",
      biathlon_penalty_device: "No such device",
    });
  });
});
