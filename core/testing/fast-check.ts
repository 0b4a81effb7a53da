/**
 * The fast-check settings every property test passes to fc.assert: one fixed seed, so every run (local or
 * CI) draws the same cases, and a number of runs. Env FC_SEED draws another sample; env FC_RUNS scales the
 * runs of every property (the default property runs DEFAULT_FC_RUNS times; a slow one asks for fewer and
 * keeps its share), e.g. `FC_SEED=7 FC_RUNS=1000 npx vitest run --testTimeout=0 …` for a long hunt (more
 * runs outlast vitest's 5 s default). A failure report still prints the seed and the path of the shrunk
 * counter-example. Also two small arbitraries the property tests share. Test support only: nothing outside
 * test files imports it.
 */
import fc from "fast-check";

/** The seed every property starts from unless FC_SEED says otherwise. */
export const DEFAULT_FC_SEED = 20261126;
/** Runs of a property that asks for no other number, unless FC_RUNS says otherwise. */
export const DEFAULT_FC_RUNS = 100;

export interface FcSettings {
  seed: number;
  /** Runs of a standard property; fcParams scales a property's own number by runs / DEFAULT_FC_RUNS. */
  runs: number;
}

type Env = Readonly<Record<string, string | undefined>>;

/** A whole number from the environment, or undefined when unset; a typo fails loudly rather than being ignored. */
function envInteger(env: Env, name: string, min: number): number | undefined {
  const text = env[name]?.trim();
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`${name} must be a whole number from ${min}, got "${text}"`);
  return value;
}

/** The settings an environment asks for. */
export function fcSettings(env: Env): FcSettings {
  return { seed: envInteger(env, "FC_SEED", -(2 ** 31)) ?? DEFAULT_FC_SEED, runs: envInteger(env, "FC_RUNS", 1) ?? DEFAULT_FC_RUNS };
}

/** fc.assert parameters for a property that wants `runs` runs at the default settings. */
export function fcParamsFor<Ts>(settings: FcSettings, runs: number = DEFAULT_FC_RUNS): fc.Parameters<Ts> {
  return { seed: settings.seed, numRuns: Math.max(1, Math.round((runs * settings.runs) / DEFAULT_FC_RUNS)) };
}

// Read through globalThis: core code has no Node types, and the settings only exist where tests run.
const processEnv: Env = (globalThis as { process?: { env?: Env } }).process?.env ?? {};
const settings = fcSettings(processEnv);

/** fc.assert parameters from the environment: the fixed (or FC_SEED) seed and `runs` scaled by FC_RUNS. */
export function fcParams<Ts>(runs: number = DEFAULT_FC_RUNS): fc.Parameters<Ts> {
  return fcParamsFor<Ts>(settings, runs);
}

/** true with `probability`, shrinking to the likelier value, so a shrunk case keeps only the rare flags it needs. */
export const chance = (probability: number): fc.Arbitrary<boolean> =>
  fc.nat(99).map((n) => (probability >= 0.5 ? n < probability * 100 : n >= 100 - probability * 100));

/** A value of `arbitrary` with `probability`, else null; shrinks to null when null still fails. */
export const maybe = <T>(probability: number, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof(
    { withCrossShrink: true },
    { weight: Math.round((1 - probability) * 100), arbitrary: fc.constant(null) },
    { weight: Math.round(probability * 100), arbitrary },
  );
