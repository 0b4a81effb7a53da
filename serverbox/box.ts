/**
 * The serverbox as one object: its identity and pairing, the races it times (each with its setup, log,
 * intake, live results and its own sync loop, so one race's refusal stops only that race: decision 0067) and
 * the heartbeat. The local server and the CLI drive it.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { backoffDelay, SYNC_BACKOFF, type BackoffPolicy } from "../core/servers/backoff";
import { CloudClient, type CloudAnswer } from "./cloud";
import { Intake, type IntakeReply } from "./intake";
import { pairBox } from "./pairing";
import { BoxRace, racePackageSchema } from "./race";
import { BoxStore, type Identity, type ReadLog } from "./store";
import { SyncLoop } from "./sync";
import { WebClients } from "./webclients";

export const HEARTBEAT_MS = 60_000;

export interface BoxOptions {
  server: string;
  storeDir: string;
  name?: string;
  backoff?: BackoffPolicy;
  log?: (line: string) => void;
}

/** Sleeps `ms`, or less when `signal` aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

export const REVOKED_MESSAGE =
  "The platform no longer accepts this serverbox's token (it was revoked, or the box was paired again elsewhere). Pair it again: a new code follows.";

interface Timing {
  race: BoxRace;
  log: ReadLog;
  intake: Intake;
  sync: SyncLoop;
}

export class Serverbox {
  readonly store: BoxStore;
  readonly cloud: CloudClient;
  identity: Identity;
  /** The races being timed, in the order they were taken. */
  readonly timings = new Map<string, Timing>();
  online: boolean | null = null;
  lastHeartbeat: number | null = null;
  pairingNote: string | null = null;
  /** The club's races as last listed (at each heartbeat): the local page's choice, offline too. */
  clubRaces: { id: string; name: string; start_time: number }[] = [];
  /** Browsers paired to key entries through the box's web keypad (decision 0084). */
  readonly webClients: WebClients;
  /** Where those browsers open the keypad, once the network listener runs (shown on the box's page). */
  keypadUrls: string[] = [];
  private readonly halt = new AbortController();
  private readonly log: (line: string) => void;
  private pairing: Promise<void> | null = null;
  private heartbeats: Promise<void> | null = null;

  constructor(private readonly options: BoxOptions) {
    this.log = options.log ?? ((line) => console.log(line));
    this.store = new BoxStore(options.storeDir);
    this.webClients = new WebClients(options.storeDir);
    const stored = this.store.identity();
    this.identity = stored ?? {
      serial: `SB-${
        hostname()
          .replace(/[^A-Za-z0-9-]/g, "")
          .slice(0, 20) || "box"
      }-${randomBytes(3).toString("hex").toUpperCase()}`,
      name: options.name ?? `Serverbox on ${hostname()}`,
      token: null,
      serverId: null,
      clubId: null,
      raceId: null,
      raceIds: [],
    };
    // A box.json from before decision 0067 names its one race in raceId.
    if (this.identity.raceId !== null)
      this.identity = { ...this.identity, raceIds: [...new Set([...this.identity.raceIds, this.identity.raceId])], raceId: null };
    if (options.name && options.name !== this.identity.name) this.identity = { ...this.identity, name: options.name };
    if (!stored || options.name) this.store.saveIdentity(this.identity);
    this.cloud = new CloudClient(options.server, this.identity.token);
  }

  /** A line in the box's console (or the test's log). */
  logLine(line: string): void {
    this.log(line);
  }

  get paired(): boolean {
    return this.identity.token !== null;
  }

  get stopped(): boolean {
    return this.halt.signal.aborted;
  }

  /** Pairs in the background (the local server already answers devices); resolves when paired or stopped. */
  ensurePaired(): Promise<void> {
    if (this.paired) return Promise.resolve();
    this.pairing ??= pairBox(this.cloud, this.store, this.identity, {
      log: this.log,
      showCode: (code, uri) => {
        this.pairingNote = `Waiting for approval: a club administrator opens ${uri} and enters the code ${code}`;
      },
      sleep: (ms) => sleep(ms, this.halt.signal),
      now: Date.now,
      random: Math.random,
      stopped: () => this.stopped,
    }).then((outcome) => {
      this.pairing = null;
      this.pairingNote = outcome.paired ? null : outcome.message;
      if (!outcome.paired) return this.log(outcome.message);
      this.identity = outcome.identity;
      this.cloud.useToken(outcome.identity.token);
      for (const timing of this.timings.values()) timing.sync.start();
      void this.races().then((races) => (this.clubRaces = races));
    });
    return this.pairing;
  }

  /** The platform refused the token: forget it, say so, and pair again; the reads stay and sync after. */
  private revoked(): void {
    if (!this.paired) return;
    this.log(REVOKED_MESSAGE);
    this.identity = { ...this.identity, token: null, serverId: null, clubId: null };
    this.store.saveIdentity(this.identity);
    this.cloud.useToken(null);
    void this.ensurePaired();
  }

  /** Notes what an answer says about the connection and the token. */
  private heard(answer: CloudAnswer<unknown>): void {
    this.online = answer.kind !== "network";
    if (answer.kind === "http" && answer.status === 401) this.revoked();
  }

  /** Fetches a race's setup (kept in the store), or, offline, uses the copy kept; then times it beside the others. */
  async takeRace(raceId: string): Promise<{ ok: true } | { ok: false; message: string }> {
    if (!this.paired) return { ok: false, message: "Pair the serverbox first." };
    const answer = await this.cloud.race(raceId);
    this.heard(answer);
    if (answer.kind === "ok") {
      const parsed = racePackageSchema.safeParse(answer.body);
      if (!parsed.success) return { ok: false, message: "The platform sent a race setup this serverbox cannot read. Update the serverbox." };
      this.store.saveSetup(raceId, parsed.data);
    } else if (answer.kind === "http" && answer.status < 500) {
      return { ok: false, message: answer.message };
    } else if (this.store.setup(raceId) === null) {
      return { ok: false, message: "The platform cannot be reached and this race was never taken here: connect once to take it." };
    }
    await this.openRace(raceId);
    return { ok: true };
  }

  /** Stops timing and syncing a race; its log stays in the store and syncs when it is taken again. */
  async dropRace(raceId: string): Promise<boolean> {
    if (!this.timings.has(raceId)) return false;
    await this.closeRace(raceId);
    this.keepRaceIds(this.identity.raceIds.filter((id) => id !== raceId));
    return true;
  }

  private keepRaceIds(raceIds: string[]): void {
    this.identity = { ...this.identity, raceIds };
    this.store.saveIdentity(this.identity);
  }

  /** Times a race kept in the store (and keeps it chosen): its log read back, results recomputed, its sync resumed. */
  async openRace(raceId: string): Promise<boolean> {
    const setup = racePackageSchema.safeParse(this.store.setup(raceId));
    if (!setup.success) return false;
    await this.closeRace(raceId);
    const log = this.store.openReads(raceId);
    const race = new BoxRace(setup.data, log.all());
    const state = this.store.syncState(raceId, this.identity.serial);
    const sync = new SyncLoop(
      this.cloud,
      raceId,
      log,
      state,
      { sleep, random: Math.random, now: Date.now, saveState: (s) => this.store.saveSyncState(raceId, s), heard: (answer) => this.heard(answer) },
      this.options.backoff ?? SYNC_BACKOFF,
    );
    this.timings.set(raceId, { race, log, intake: new Intake(race, log), sync });
    // Kept as chosen, so a restart times it again (offline too, from the store).
    if (!this.identity.raceIds.includes(raceId)) this.keepRaceIds([...this.identity.raceIds, raceId]);
    if (this.paired) sync.start();
    return true;
  }

  async closeRace(raceId: string): Promise<void> {
    const timing = this.timings.get(raceId);
    if (!timing) return;
    this.timings.delete(raceId);
    await timing.sync.stop();
    timing.log.close();
  }

  /** A device's batch for a race being timed: reads, keypad entries (`keypad`: the paired phone that keyed them) or range data. */
  take(raceId: string, kind: "reads" | "manual" | "range", deviceId: string | null, body: unknown, keypad: string | null = null): IntakeReply<unknown> {
    const timing = this.timings.get(raceId);
    if (!timing) return { ok: false, status: 404, error: "not_found", message: "This serverbox is not timing that race" };
    let reply: IntakeReply<{ accepted: number }>;
    if (kind === "manual") reply = timing.intake.takeManual(body, keypad);
    else if (deviceId === null)
      return {
        ok: false,
        status: 400,
        error: "unknown_device",
        message: "Name the device: a Timing-Device header, or its credential as Authorization: Bearer <deviceId>.<secret>",
      };
    else reply = kind === "reads" ? timing.intake.take(deviceId, body) : timing.intake.takeRange(deviceId, body);
    if (reply.ok && reply.receipt.accepted > 0) timing.sync.poke();
    return reply;
  }

  /** The club's races, for the local page's choice (online only). */
  async races(): Promise<{ id: string; name: string; start_time: number }[]> {
    if (!this.paired) return this.clubRaces;
    const answer = await this.cloud.races();
    this.heard(answer);
    return answer.kind === "ok" ? answer.body.races : this.clubRaces;
  }

  /** A heartbeat every minute while the box runs; each says whether the platform is there. */
  startHeartbeat(every = HEARTBEAT_MS): void {
    this.heartbeats ??= (async () => {
      let failures = 0;
      while (!this.stopped) {
        if (this.paired) {
          const answer = await this.cloud.heartbeat(this.webClients.report());
          this.heard(answer);
          if (answer.kind === "ok") {
            this.lastHeartbeat = Date.now();
            // A phone the club revoked on its Servers page is unpaired here: its next entry is refused.
            for (const id of answer.body.revoked_webclients ?? [])
              if (this.webClients.forget(id)) this.log("A web keypad was revoked by the club: it must pair again to send entries.");
            this.clubRaces = await this.races();
          }
          failures = answer.kind === "network" ? failures + 1 : 0;
        }
        // Offline, the next beat comes sooner, so the page shows the platform back within seconds.
        await sleep(failures > 0 ? Math.min(every, backoffDelay(this.options.backoff ?? SYNC_BACKOFF, failures, Math.random())) : every, this.halt.signal);
      }
    })();
  }

  async stop(): Promise<void> {
    this.halt.abort();
    for (const raceId of [...this.timings.keys()]) await this.closeRace(raceId);
    await Promise.all([this.pairing, this.heartbeats]);
  }
}
