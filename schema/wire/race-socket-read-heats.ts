/** The sprint heats frame's reader (race-socket-read.ts): only the bracket pages load it. */
import type { HeatEntryWire, HeatGroupWire, HeatsView, HeatWire } from "./race-socket";
import { array, boolean, count, fields, nullable, nullableCount, nullableNumber, nullableString, oneOf, string, type FrameReaders } from "./race-socket-read";

const heatStatus = nullable(oneOf<NonNullable<HeatEntryWire["status"]>>({ dns: true, dnf: true, dsq: true }));

const heatEntry = (value: unknown): HeatEntryWire => {
  const o = fields(value);
  return {
    racerId: nullableString(o.racerId),
    seat: string(o.seat),
    bib: nullableNumber(o.bib),
    name: string(o.name),
    qualifierRank: nullableCount(o.qualifierRank),
    qualifierTime: nullableNumber(o.qualifierTime),
    place: nullableCount(o.place),
    time: nullableNumber(o.time),
    status: heatStatus(o.status),
    advances: nullable(oneOf<NonNullable<HeatEntryWire["advances"]>>({ place: true, lucky: true, lower: true }))(o.advances),
  };
};

const heat = (value: unknown): HeatWire => {
  const o = fields(value);
  return {
    id: string(o.id),
    key: string(o.key),
    round: count(o.round),
    name: string(o.name),
    canonicalName: string(o.canonicalName),
    rankIndex: count(o.rankIndex),
    scheduledStart: nullableNumber(o.scheduledStart),
    ready: boolean(o.ready),
    complete: boolean(o.complete),
    entries: array(heatEntry)(o.entries),
  };
};

const round = (value: unknown): HeatGroupWire["rounds"][number] => {
  const o = fields(value);
  return { round: count(o.round), name: string(o.name), complete: boolean(o.complete), timed: boolean(o.timed), heats: array(heat)(o.heats) };
};

const ranked = (value: unknown): HeatGroupWire["ranking"][number] => {
  const o = fields(value);
  return {
    racerId: string(o.racerId),
    rank: count(o.rank),
    bib: nullableNumber(o.bib),
    name: string(o.name),
    roundReached: count(o.roundReached),
    place: nullableCount(o.place),
    status: heatStatus(o.status),
    qualifierRank: count(o.qualifierRank),
  };
};

const heatGroup = (value: unknown): HeatGroupWire => {
  const o = fields(value);
  return {
    startGroupId: string(o.startGroupId),
    name: string(o.name),
    formatKey: string(o.formatKey),
    formatName: string(o.formatName),
    rounds: array(round)(o.rounds),
    ranking: array(ranked)(o.ranking),
  };
};

const heatsView = (value: unknown): HeatsView => {
  const o = fields(value);
  return {
    version: count(o.version),
    displayPrecision: count(o.displayPrecision),
    timesShown: oneOf<HeatsView["timesShown"]>({ quali: true, heat: true })(o.timesShown),
    groups: array(heatGroup)(o.groups),
  };
};

export const HEATS_FRAMES: FrameReaders = { heats: (o) => ({ type: "heats", heats: heatsView(o.heats) }) };
