/** Every frame the race socket sends, read as raceServerMessageSchema reads it (tests, and pages that take every kind). */
import type { RaceServerMessage } from "./race-socket";
import { readRaceFrame } from "./race-socket-read";
import { HEATS_FRAMES } from "./race-socket-read-heats";
import { SNAPSHOT_FRAMES } from "./race-socket-read-snapshot";

/** A parsed JSON frame as raceServerMessageSchema.safeParse would read it: the same value, or null where zod fails. */
export function readRaceServerMessage(value: unknown): RaceServerMessage | null {
  return readRaceFrame(value, { ...SNAPSHOT_FRAMES, ...HEATS_FRAMES });
}
