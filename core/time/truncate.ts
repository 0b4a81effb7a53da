import { TimingError } from "../timing/errors";

/** The most decimal places truncation supports (timing.md section 9); microseconds have six. */
export const MAX_PRECISION = 6;

/**
 * Truncates (never rounds) a microsecond time to `precision` decimal places of a second: a racer is
 * never given a time better than the one measured. Negative times truncate toward zero.
 */
export function truncateMicros(micros: number, precision: number): number {
  if (!Number.isInteger(precision) || precision < 0) throw new RangeError(`precision must be a whole number from 0, got ${precision}`);
  if (precision > MAX_PRECISION) throw new TimingError("precisionAboveSix", String(precision));
  const step = 10 ** (MAX_PRECISION - precision);
  return Math.trunc(micros / step) * step;
}
