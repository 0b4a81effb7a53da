import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_FC_RUNS, DEFAULT_FC_SEED, fcParams, fcParamsFor, fcSettings } from "./fast-check";

describe("shared fast-check settings", () => {
  it("use the fixed seed and the default runs when the environment says nothing", () => {
    expect(fcSettings({})).toEqual({ seed: 20261126, runs: 100 });
    expect(fcSettings({ FC_SEED: " ", FC_RUNS: "" })).toEqual({ seed: DEFAULT_FC_SEED, runs: DEFAULT_FC_RUNS });
    expect(fcParamsFor(fcSettings({}))).toEqual({ seed: 20261126, numRuns: 100 });
    expect(fcParamsFor(fcSettings({}), 30)).toEqual({ seed: 20261126, numRuns: 30 });
  });

  it("take FC_SEED and scale every property's runs by FC_RUNS", () => {
    const settings = fcSettings({ FC_SEED: "-7", FC_RUNS: "1000" });
    expect(settings).toEqual({ seed: -7, runs: 1000 });
    expect(fcParamsFor(settings, 30)).toEqual({ seed: -7, numRuns: 300 });
    // A slow property never drops to zero runs.
    expect(fcParamsFor(fcSettings({ FC_RUNS: "1" }), 30).numRuns).toBe(1);
  });

  it("refuse a value that is not a whole number", () => {
    expect(() => fcSettings({ FC_RUNS: "lots" })).toThrow('FC_RUNS must be a whole number from 1, got "lots"');
    expect(() => fcSettings({ FC_RUNS: "0" })).toThrow("FC_RUNS must be a whole number from 1");
    expect(() => fcSettings({ FC_SEED: "1.5" })).toThrow("FC_SEED must be a whole number");
  });

  it("replay the same cases for the same seed, and report the seed of a failure", () => {
    const draws = (seed: number) => fc.sample(fc.integer(), { seed, numRuns: 5 });
    expect(draws(fcParams().seed!)).toEqual(draws(fcParams().seed!));
    const failure = fc.check(
      fc.property(fc.nat(), (n) => n < 10),
      fcParams(),
    );
    expect(failure.failed).toBe(true);
    // Shrunk to the smallest failing value, with the seed and path that replay it.
    expect(failure.counterexample).toEqual([10]);
    expect(failure.seed).toBe(fcParams().seed);
    expect(
      fc.check(
        fc.property(fc.nat(), (n) => n < 10),
        { ...fcParams(), path: failure.counterexamplePath! },
      ).counterexample,
    ).toEqual([10]);
  });
});
