/**
 * A spectator shard that falls behind its race room sends one frame for several ticks: publications that
 * arrive while it is still sending are merged here, so a backlog costs each socket one send, not one per
 * tick (decision 0039). A format's chained frames merge into one frame from the first's `from` to the last's
 * `version` whose rows are each racer's latest; a reset supersedes every publication before it.
 */
import type { AnnouncerFrame, FormatFrame, HeatsFrame, Publication } from "./race-fanout";
import type { RaceServerMessage, ResultRow } from "./race-socket";
import { fellField } from "./window-filter";

type RowsMessage = Extract<RaceServerMessage, { type: "rows" }>;

/**
 * The shard's waiting publications with `next` taken in: a reset drops every publication before it (it resends
 * each format whole, at the room's version then), and a rows publication merges into a rows publication
 * waiting last. Heats are the newest either carries.
 */
export function enqueuePublication(waiting: readonly Publication[], next: Publication): Publication[] {
  const last = waiting.at(-1);
  const heats = newer(
    waiting.reduce<HeatsFrame | null>((newest, p) => newer(newest, p.heats), null),
    next.heats,
  );
  // One announcer frame says what many would: fetch the view again.
  const announcer = newer(
    waiting.reduce<AnnouncerFrame | null>((newest, p) => newer(newest, p.announcer ?? null), null),
    next.announcer ?? null,
  );
  if (next.kind === "reset") return [{ ...next, heats, announcer }];
  if (!last || last.kind === "reset") return [...waiting, next];
  const formats = [...last.formats];
  for (const frame of next.formats) {
    const index = formats.findIndex((f) => f.formatId === frame.formatId);
    // A frame that does not chain on the one waiting goes after it: the shard resyncs at the gap.
    if (index >= 0 && formats[index]!.version === frame.from) formats[index] = mergeFrames(formats[index]!, frame);
    else formats.push(frame);
  }
  return [...waiting.slice(0, -1), { kind: "rows", formats, heats, announcer }];
}

/** Two chained frames of one format as one: each racer's latest row, in the order racers first changed. */
export function mergeFrames(first: FormatFrame, second: FormatFrame): FormatFrame {
  const rows = new Map<string, ResultRow>();
  const fell = new Set<string>();
  for (const message of [messageOf(first), messageOf(second)]) {
    for (const row of message.rows) rows.set(row.racerId, row);
    // A racer that fell in either frame fell across the two, wherever it went next.
    for (const id of message.fell ?? []) fell.add(id);
  }
  const message: RowsMessage = {
    type: "rows",
    formatId: first.formatId,
    from: first.from,
    version: second.version,
    rows: [...rows.values()],
    ...fellField([...fell]),
  };
  return { formatId: first.formatId, from: first.from, version: second.version, frame: JSON.stringify(message) };
}

function messageOf(frame: FormatFrame): RowsMessage {
  return JSON.parse(frame.frame) as RowsMessage;
}

/** The later of two frames by version (heats, announcer). */
function newer<T extends { version: number }>(a: T | null, b: T | null): T | null {
  if (!a) return b;
  if (!b) return a;
  return b.version >= a.version ? b : a;
}
