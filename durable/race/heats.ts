/**
 * Sprint heats in a RaceRoom: seeding a start group's heats from its qualifier, timers' heat results, and
 * the bracket every heat page shows. The rules are core/timing/heats.ts; this file reads and writes the
 * room's storage, each change in one transaction.
 */
import { bumpMtimes, initialMtimes } from "../../core/entity/field-mtimes";
import { readHeatEntry, type HeatEntryInput } from "../../core/timing/heat-entry";
import { availableHeatFormats, chooseHeatFormat, type HeatFormat } from "../../core/timing/heat-formats";
import { buildBracket, compareHeats, heatKey, scheduleHeats, type Bracket, type HeatOutcome } from "../../core/timing/heats";
import { TimingError } from "../../core/timing/errors";
import type { RacerResult } from "../../core/timing/model";
import { compareKeys } from "../../core/timing/rank";
import { racerDisplayName } from "../../core/timing/racer-name";
import { seedRacers } from "../../core/timing/seeding";
import type { HeatDoc, StoredDocument } from "../../schema/race/documents";
import type { StoredRacer } from "../../schema/race/engine-input";
import type { RaceSettings } from "../../schema/race/settings";
import type { HeatGroupWire, HeatsView } from "../../schema/wire/race-socket";
import { seedRacerOf } from "./start-order";
import type { RaceStore } from "./store";

export type HeatReply = { ok: true; value: { heats: number } } | { ok: false; errors: Record<string, string> };

const MINUTE_MICROS = 60_000_000;

interface HeatGroup {
  group: StoredDocument<"StartGroup">;
  formatKey: string;
  format: HeatFormat;
  heats: StoredDocument<"Heat">[];
  bracket: Bracket;
}

export class RaceHeats {
  constructor(
    private readonly store: RaceStore,
    private readonly settings: () => RaceSettings,
  ) {}

  /** Start groups whose heats are seeded, each with its bracket as the results entered so far make it. */
  groups(): HeatGroup[] {
    const settings = this.settings();
    const formats = availableHeatFormats(settings.heat_format_dict);
    const allHeats = this.store.documents("Heat");
    return this.store
      .documents("StartGroup")
      .filter((g) => g.data.heat_format !== null && g.data.seed_list.length > 0)
      .map((group) => {
        const qualifiers = group.data.seed_list.filter((id): id is string => typeof id === "string");
        // The format frozen at seeding, so editing heat_format_dict later cannot reshape a running sprint.
        const frozen = group.data.heat_format_defn;
        const formatKey = group.data.heat_format!;
        const format = frozen ?? formats[formatKey] ?? chooseHeatFormat(formats, [], qualifiers.length).format;
        const heats = allHeats.filter((h) => h.data.startgroup === group.id);
        const outcomes: Record<string, HeatOutcome> = {};
        for (const heat of heats) outcomes[heatKey(heat.data.round_num, heat.data.canonical_name)] = outcomeOf(heat.data);
        const bracket = buildBracket({ format, qualifiers, outcomes, dynamic: settings.is_dynamic_heats, calcPrecision: settings.calc_precision });
        return { group, formatKey, format, heats, bracket };
      });
  }

  /** The bracket pages' view: every seeded start group with its rounds, heats, racers and ranking. */
  view(version: number, qualifierTime: (racerId: string) => number | null): HeatsView {
    const settings = this.settings();
    const heatGroups = this.groups();
    // Only the racers the brackets name are read: each setup change redraws this view, and a 50,000-racer race
    // without heats parsed every racer's document for it (400 ms a change, decision 0099).
    const named = new Set<string>();
    for (const { bracket } of heatGroups) {
      for (const round of bracket.rounds) for (const heat of round.heats) for (const e of heat.entries) if (e.racerId) named.add(e.racerId);
      for (const r of bracket.ranking) named.add(r.racerId);
    }
    const racers = new Map(this.store.racersById([...named]).map((r) => [r.id, r]));
    const person = (racerId: string | null) => {
      const racer = racerId ? racers.get(racerId) : undefined;
      return {
        bib: racer?.data.bib ?? null,
        name: racer
          ? racerDisplayName({ firstName: racer.data.first_name, lastName: racer.data.last_name, fullname: racer.data.fullname }, settings.is_last_name_first)
          : "",
      };
    };
    const groups: HeatGroupWire[] = heatGroups.map(({ group, formatKey, format, heats, bracket }) => {
      const docOf = new Map(heats.map((h) => [heatKey(h.data.round_num, h.data.canonical_name), h]));
      const scheduled = heats.some((h) => h.data.scheduled_start_time !== null);
      // Within a round: the B-Final below the A-Final, then by scheduled start when heats are scheduled, else by ordinal.
      const order = compareHeats(scheduled ? "time" : "ordinal");
      const sortKey = (h: Bracket["rounds"][number]["heats"][number]) => ({
        round: h.round,
        rankIndex: h.rankIndex,
        ordinal: docOf.get(h.key)?.ordinal ?? 0,
        scheduledStart: docOf.get(h.key)?.data.scheduled_start_time ?? null,
      });
      return {
        startGroupId: group.id,
        name: group.data.name || `Start group ${group.ordinal}`,
        formatKey,
        formatName: format.name,
        rounds: bracket.rounds.map((round) => ({
          round: round.round,
          name: round.name,
          complete: round.complete,
          timed: round.timed,
          heats: [...round.heats]
            .sort((a, b) => order(sortKey(a), sortKey(b)))
            .map((h) => ({
              id: docOf.get(h.key)?.id ?? h.key,
              key: h.key,
              round: h.round,
              name: h.name,
              canonicalName: h.canonicalName,
              rankIndex: h.rankIndex,
              scheduledStart: docOf.get(h.key)?.data.scheduled_start_time ?? null,
              ready: h.ready,
              complete: h.complete,
              entries: h.entries.map((e) => ({ ...e, ...person(e.racerId), qualifierTime: e.racerId ? qualifierTime(e.racerId) : null })),
            })),
        })),
        ranking: bracket.ranking.map((r) => ({
          racerId: r.racerId,
          rank: r.rank,
          roundReached: r.roundReached,
          place: r.place,
          status: r.status,
          qualifierRank: r.qualifierRank,
          ...person(r.racerId),
        })),
      };
    });
    return { version, displayPrecision: settings.display_precision, timesShown: settings.sprint_column_option, groups };
  }

  /**
   * Seeds a start group's heats from its qualifier: the group's finishers by qualifier rank (equal times at
   * calc precision share a rank), then by CPL sprint points: the "heat by cpl sprint points and qualifier
   * rank" seed function. A racer in several categories cannot be seeded.
   */
  seedFromQualifier(groupId: string, resultOf: (racerId: string) => RacerResult | undefined, formatKey: string | null, now: number): HeatReply {
    const settings = this.settings();
    const finishers = this.store
      .racers()
      .filter((r) => r.data.setupgroup_id === groupId)
      .flatMap((racer) => {
        const result = resultOf(racer.id);
        return result?.rankKey ? [{ racer, result, rankKey: result.rankKey }] : [];
      })
      .sort((a, b) => compareKeys(a.result.key, b.result.key));
    const rank = new Map<string, number>();
    finishers.forEach((f, i) => {
      const previous = finishers[i - 1];
      rank.set(f.racer.id, previous && compareKeys(previous.rankKey, f.rankKey) === 0 ? rank.get(previous.racer.id)! : i + 1);
    });
    let order: string[];
    try {
      order = seedRacers(
        "heat_cpl_sprint_qualifier_rank",
        finishers.map((f) => ({ ...seedRacerOf(f.racer, settings), qualifierRank: rank.get(f.racer.id)! })),
        { rng: Math.random },
      ).order;
    } catch (error) {
      if (error instanceof TimingError) return { ok: false, errors: { startgroup: error.message } };
      throw error;
    }
    return this.seed(groupId, order, formatKey, now);
  }

  /**
   * Seeds a start group's heats: freezes its qualifier order and format, writes each racer's qualifier
   * rank, and creates every heat of every round (scheduled when automatic heat scheduling is on).
   */
  seed(groupId: string, qualifiers: readonly string[], formatKey: string | null, now: number): HeatReply {
    const settings = this.settings();
    const group = this.store.document("StartGroup", groupId);
    if (!group) return { ok: false, errors: { startgroup: "StartGroup not found" } };
    if (!settings.is_heats) return { ok: false, errors: { startgroup: "Turn on sprint heats for this race first" } };
    if (qualifiers.length < 2) return { ok: false, errors: { startgroup: "At least 2 racers of this start group must finish the qualifier first" } };
    const existing = this.store.documents("Heat").filter((h) => h.data.startgroup === groupId);
    if (existing.some((h) => hasResult(h.data)))
      return { ok: false, errors: { startgroup: "Heats of this start group already have results; clear them before seeding again" } };
    const formats = availableHeatFormats(settings.heat_format_dict);
    const chosen = chooseHeatFormat(formats, [formatKey, group.data.heat_format, settings.default_heat_format], qualifiers.length);
    const schedule = settings.is_auto_heat_scheduling
      ? scheduleHeats([{ id: groupId, heatsPerRound: chosen.format.rounds.map((r) => r.heats.length) }], {
          // Heats begin after the rest time, from the next whole minute.
          firstStart: Math.ceil((now * 1000) / MINUTE_MICROS) * MINUTE_MICROS + (settings.heat_min_rest ?? 0),
          interval: settings.heat_start_interval ?? 4 * MINUTE_MICROS,
          minRest: settings.heat_min_rest ?? 0,
          groupCount: settings.heat_group_count,
        })
      : [];
    let ordinal = this.store.nextOrdinal("Heat");
    let created = 0;
    for (const heat of existing) this.store.deleteDocument(heat.id);
    this.store.putDocument(
      "StartGroup",
      group.id,
      group.ordinal,
      {
        ...group.data,
        heat_format: chosen.key,
        heat_format_defn: chosen.format,
        seed_list: [...qualifiers],
        rounds_list: chosen.format.rounds.map((r) => r.name),
      },
      bumpMtimes(this.store.documentMtimes(group.id), ["heat_format", "heat_format_defn", "seed_list", "rounds_list"], now),
    );
    chosen.format.rounds.forEach((round, r) =>
      round.heats.forEach((h, i) => {
        const data: HeatDoc = {
          name: h.name,
          round_num: r + 1,
          startgroup: groupId,
          canonical_name: h.canonical_name,
          seed_list: [...h.slots],
          tie_list: [],
          racer_ids_list: [],
          entities_list: [],
          scheduled_start_time: schedule.find((s) => s.round === r + 1 && s.index === i)?.start ?? null,
          start_mode: "mass",
          finish_list: [],
          times_dict: {},
          status_dict: {},
          is_complete: false,
        };
        this.store.putDocument("Heat", crypto.randomUUID(), ordinal++, data, initialMtimes(data, now));
        created++;
      }),
    );
    qualifiers.forEach((racerId, i) => {
      const racer = this.store.racer(racerId);
      if (racer && racer.data.qualifier_num !== i + 1)
        this.store.putRacer(racerId, { ...racer.data, qualifier_num: i + 1 }, bumpMtimes(this.store.racerMtimes(racerId), ["qualifier_num"], now));
    });
    this.syncSeats(now);
    return { ok: true, value: { heats: created } };
  }

  /** A timer's result for one heat, read against the racers seated in it. */
  saveResult(heatId: string, input: HeatEntryInput, now: number): HeatReply {
    const found = this.find(heatId);
    if (!found) return { ok: false, errors: { heat: "No such heat" } };
    const { heat, group, bracketHeat } = found;
    if (!bracketHeat.ready) return { ok: false, errors: { heat: "This heat's racers are not decided yet" } };
    const later = group.heats.find((h) => h.data.round_num > heat.data.round_num && hasResult(h.data));
    if (later) return { ok: false, errors: { heat: `${later.data.name} already has a result; clear the later rounds first` } };
    const racers = new Map(this.store.racers().map((r) => [r.id, r] as [string, StoredRacer]));
    const seated = bracketHeat.entries.filter((e) => e.racerId).map((e) => ({ racerId: e.racerId!, bib: racers.get(e.racerId!)?.data.bib ?? null }));
    const read = readHeatEntry(seated, input);
    if (!read.ok) return read;
    return this.writeResult(heat, { ...heat.data, ...read.value, racer_ids_list: seated.map((s) => s.racerId), is_complete: true }, now);
  }

  /** Takes a heat's result away (a wrong entry); refused while a later round has results. */
  clearResult(heatId: string, now: number): HeatReply {
    const found = this.find(heatId);
    if (!found) return { ok: false, errors: { heat: "No such heat" } };
    const { heat, group } = found;
    const later = group.heats.find((h) => h.data.round_num > heat.data.round_num && hasResult(h.data));
    if (later) return { ok: false, errors: { heat: `${later.data.name} already has a result; clear the later rounds first` } };
    return this.writeResult(heat, { ...heat.data, finish_list: [], times_dict: {}, status_dict: {}, tie_list: [], is_complete: false }, now);
  }

  /** A heat's result fields written (their change times moved on), then every later round's seats again. */
  private writeResult(heat: { id: string; ordinal: number; data: HeatDoc }, data: HeatDoc, now: number): HeatReply {
    const fields = ["finish_list", "times_dict", "status_dict", "tie_list", "is_complete"];
    this.store.putDocument("Heat", heat.id, heat.ordinal, data, bumpMtimes(this.store.documentMtimes(heat.id), fields, now));
    this.syncSeats(now);
    return { ok: true, value: { heats: 1 } };
  }

  private find(heatId: string) {
    for (const group of this.groups()) {
      const heat = group.heats.find((h) => h.id === heatId);
      if (!heat) continue;
      const key = heatKey(heat.data.round_num, heat.data.canonical_name);
      const bracketHeat = group.bracket.rounds.flatMap((r) => r.heats).find((h) => h.key === key);
      if (bracketHeat) return { heat, group, bracketHeat };
    }
    return null;
  }

  /** Writes each heat's seats (racer_ids_list) as the bracket now decides them, so the data API shows them. */
  private syncSeats(now: number): void {
    for (const { heats, bracket } of this.groups()) {
      const seatsOf = new Map(
        bracket.rounds.flatMap((r) => r.heats).map((h) => [h.key, h.entries.map((e) => e.racerId).filter((id): id is string => id !== null)]),
      );
      for (const heat of heats) {
        const seats = seatsOf.get(heatKey(heat.data.round_num, heat.data.canonical_name)) ?? [];
        if (seats.join() === heat.data.racer_ids_list.join()) continue;
        this.store.putDocument(
          "Heat",
          heat.id,
          heat.ordinal,
          { ...heat.data, racer_ids_list: seats },
          bumpMtimes(this.store.documentMtimes(heat.id), ["racer_ids_list"], now),
        );
      }
    }
  }
}

function hasResult(heat: HeatDoc): boolean {
  return heat.is_complete || heat.finish_list.length > 0;
}

function outcomeOf(heat: HeatDoc): HeatOutcome {
  return { finishOrder: heat.finish_list, times: heat.times_dict, statuses: heat.status_dict, ties: heat.tie_list, complete: heat.is_complete };
}
