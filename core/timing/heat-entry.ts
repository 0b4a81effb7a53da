/**
 * What a timer types for a heat (timing.md: heat pages for timers): the finish order by bib, a photo-finish
 * tie joined with "=", optional heat times, and a status for racers who did not finish. Read into the
 * Heat document's result fields, or refused with a message beside the field at fault.
 */
import { isInvalid, parseRaceTime } from "../time/parse";
import type { Micros } from "./model";
import type { HeatStatus } from "./heats";

export interface SeatedRacer {
  racerId: string;
  bib: number | null;
}

export interface HeatEntryInput {
  /** "12 4=7 9": bibs in finish order; "=" joins racers the photo finish could not separate. */
  order: string;
  /** Heat times by racer id ("2:51.3"); blank for an untimed heat. */
  times: Readonly<Record<string, string>>;
  /** "dnf" | "dns" | "dsq" by racer id, for racers not in the finish order; blank is dnf. */
  statuses: Readonly<Record<string, string>>;
}

export interface HeatResultFields {
  finish_list: string[];
  times_dict: Record<string, Micros>;
  status_dict: Record<string, HeatStatus>;
  tie_list: string[][];
}

export type HeatEntryReply = { ok: true; value: HeatResultFields } | { ok: false; errors: Record<string, string> };

export const FINISH_ORDER_HELP = "Enter bibs in finish order, separated by spaces; join a photo-finish tie with =, like 12 4=7 9";

const STATUSES = new Set<string>(["dnf", "dns", "dsq"]);

/** Reads a heat entry against the racers seated in the heat. */
export function readHeatEntry(seated: readonly SeatedRacer[], input: HeatEntryInput): HeatEntryReply {
  const byBib = new Map(seated.filter((s) => s.bib !== null).map((s) => [s.bib!, s.racerId]));
  const bibOf = new Map(seated.map((s) => [s.racerId, s.bib]));
  const label = (racerId: string) => (bibOf.get(racerId) === null ? "This racer" : `Bib ${bibOf.get(racerId)}`);
  const finishList: string[] = [];
  const ties: string[][] = [];
  for (const token of input.order
    .trim()
    .split(/[\s,]+/)
    .filter(Boolean)) {
    const group: string[] = [];
    for (const part of token.split("=")) {
      if (!/^\d{1,6}$/.test(part)) return refuse({ order: `“${token}” is not a bib. ${FINISH_ORDER_HELP}` });
      const racerId = byBib.get(Number(part));
      if (!racerId) return refuse({ order: `Bib ${Number(part)} is not in this heat` });
      if (finishList.includes(racerId) || group.includes(racerId)) return refuse({ order: `Bib ${Number(part)} is listed twice` });
      group.push(racerId);
    }
    finishList.push(...group);
    if (group.length > 1) ties.push(group);
  }

  const statuses: Record<string, HeatStatus> = {};
  for (const { racerId } of seated) {
    const status = (input.statuses[racerId] ?? "").trim().toLowerCase();
    if (status && !STATUSES.has(status)) return refuse({ [`status_${racerId}`]: "Choose DNF, DNS or DSQ" });
    if (finishList.includes(racerId)) {
      if (status) return refuse({ [`status_${racerId}`]: `${label(racerId)} is in the finish order; a finisher has no status` });
    } else {
      statuses[racerId] = (status || "dnf") as HeatStatus;
    }
  }
  if (finishList.length === 0 && Object.values(input.statuses).every((s) => !s.trim())) return refuse({ order: FINISH_ORDER_HELP });

  const times: Record<string, Micros> = {};
  let previous: { racerId: string; time: Micros } | null = null;
  for (const racerId of finishList) {
    const text = (input.times[racerId] ?? "").trim();
    if (!text) continue;
    const time = parseRaceTime(text);
    if (isInvalid(time)) return refuse({ [`time_${racerId}`]: time.error });
    if (time <= 0) return refuse({ [`time_${racerId}`]: "A heat time must be above zero" });
    if (previous && time < previous.time)
      return refuse({ [`time_${racerId}`]: `${label(racerId)} finished after ${label(previous.racerId)}, so its time cannot be faster` });
    times[racerId] = time;
    previous = { racerId, time };
  }
  for (const [racerId, text] of Object.entries(input.times)) {
    if (text.trim() && !finishList.includes(racerId) && bibOf.has(racerId)) return refuse({ [`time_${racerId}`]: "Only finishers have a heat time" });
  }
  return { ok: true, value: { finish_list: finishList, times_dict: times, status_dict: statuses, tie_list: ties } };
}

function refuse(errors: Record<string, string>): HeatEntryReply {
  return { ok: false, errors };
}
