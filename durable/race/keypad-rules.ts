/**
 * Keypad entries' pure rules: when a batch is refused, a time entry's time, and what a status entry and a
 * shooting's misses do to a racer's stored fields; so the race room and the serverbox (decision 0067) take
 * and apply an entry alike.
 */
import { isInvalid, parseTimeOfDay } from "../../core/time/parse";
import { setRacerStatus } from "../../core/timing/status";
import type { RacerDoc } from "../../schema/race/racer";
import type { ManualEntry } from "../../schema/wire/manual-entry";

/** Why a keypad batch is refused before anything is written (a timing point the race lacks, a time of day that is none), or null. */
export function manualEntriesProblem(entries: readonly ManualEntry[], hasPoint: (id: string) => boolean): string | null {
  const unknownPoint = entries.find((e) => e.kind === "time" && !hasPoint(e.point));
  if (unknownPoint) return `No such timing point: ${(unknownPoint as { point: string }).point}`;
  for (const [index, entry] of entries.entries()) {
    if (entry.kind !== "time" || entry.tod === undefined) continue;
    const tod = parseTimeOfDay(entry.tod);
    if (isInvalid(tod)) return `entries[${index}].tod: ${tod.error}`;
  }
  return null;
}

/** A time entry's time on the race's clock: its own, or its time of day on the race's day (checked by manualEntriesProblem). */
export function manualEntryTime(entry: { time?: number; tod?: string }, zeroTime: number): number {
  return entry.time ?? zeroTime + (parseTimeOfDay(entry.tod!) as number);
}

export type KeypadStatus = "dns" | "dnf" | "dsq" | "ok";

/** Sets the racer's status, or with `run` that run's own (multi-run): one of dns, dnf, dsq clears the other two; ok clears all three (timing.md section 4). */
export function applyStatus(data: RacerDoc, status: KeypadStatus, time: number, run?: number): RacerDoc {
  if (run !== undefined) {
    const runs = [...data.run_statuses];
    while (runs.length < run) runs.push(null);
    const own = runs[run - 1];
    const flags = setRacerStatus({ isDns: own?.is_dns ?? false, dnfTime: own?.dnf_time ?? null, dsqTime: own?.dsq_time ?? null }, status, time);
    if (isInvalid(flags)) return data;
    runs[run - 1] = status === "ok" ? null : { is_dns: flags.isDns, dnf_time: flags.dnfTime, dsq_time: flags.dsqTime };
    return { ...data, run_statuses: runs };
  }
  const flags = setRacerStatus({ isDns: data.dns, dnfTime: data.dnf_time, dsqTime: data.dsq_time }, status, time);
  if (isInvalid(flags)) return data;
  return { ...data, dns: flags.isDns, dnf_time: flags.dnfTime, dsq_time: flags.dsqTime };
}

/** One shooting's misses written on the racer; shootings before it stay as they are (a later entry replaces an earlier). */
export function withMisses(data: RacerDoc, shooting: number, misses: number): RacerDoc {
  const list = [...data.biathlon_misses];
  while (list.length < shooting) list.push(null);
  list[shooting - 1] = misses;
  return { ...data, biathlon_misses: list };
}
