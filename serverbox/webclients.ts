/**
 * WebClients (timing.md's third TimingServer subtype): browsers on the venue's network, a phone at the finish
 * or a tablet at the range, that time through the box's web keypad while the internet is down (decision 0084).
 *
 * A browser pairs by typing the six-digit code shown on the box's own page (which only the laptop itself can
 * open, on 127.0.0.1) and keeps a random token in a cookie. The box keeps only each token's SHA-256 in
 * `webclients.json`, so a copied store does not let anyone post entries.
 */
import { createHash, randomBytes, randomInt, randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import * as z from "zod";
import { MAX_REPORTED_WEBCLIENTS } from "../core/servers/pairing";
import { writeFileAtomic } from "./store";

/** How long a pairing form sent twice (a double click) gets the first send's answer instead of "wrong code". */
export const REPEAT_MS = 10_000;

/** Wrong codes before the code is replaced: five guesses in a million, then the timer reads a new one. */
export const MAX_WRONG_CODES = 5;
export const CODE_LENGTH = 6;
export const MAX_NAME = 60;

export const WRONG_CODE = "That is not the code on the serverbox's page. Check it and try again.";
export const CODE_REPLACED = "Too many wrong codes: the serverbox shows a new code now. Read it from its page.";
export const NAME_NEEDED = "Name this keypad (for example Finish line phone), at most 60 characters.";

const clientSchema = z.object({
  id: z.string(),
  name: z.string(),
  tokenHash: z.string().regex(/^[0-9a-f]{64}$/),
  pairedAt: z.number(),
  lastSeen: z.number().nullable(),
});
export type WebClient = z.infer<typeof clientSchema>;
const fileSchema = z.object({ clients: z.array(clientSchema) });

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

/** How old the stored last-seen time of a phone may get before a verify writes it again. */
export const SEEN_SAVE_MS = 60_000;

const newCode = () => String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, "0");

export type PairResult = { ok: true; token: string; client: WebClient } | { ok: false; message: string };

export class WebClients {
  private clients: WebClient[];
  private currentCode: string;
  private wrong = 0;
  private readonly file: string;
  /** The last pairing, for a double click's second send; in memory only, and only for REPEAT_MS. */
  private last: { code: string; name: string; at: number; result: PairResult & { ok: true } } | null = null;
  /** Each phone's last-seen time as the store holds it (until the first save, as it was read). */
  private readonly stored = new Map<string, number | null>();

  constructor(
    dir: string,
    private readonly now: () => number = Date.now,
    /** A fresh code; the tests draw in order to know each one. */
    private readonly drawCode: () => string = newCode,
  ) {
    this.currentCode = drawCode();
    this.file = path.join(dir, "webclients.json");
    // A store written by hand or cut short pairs nobody rather than failing the box's start.
    const parsed = existsSync(this.file) ? fileSchema.safeParse(safeJson(readFileSync(this.file, "utf8"))) : null;
    this.clients = parsed?.success ? parsed.data.clients : [];
  }

  /**
   * The code a browser must type. It is not stored: a restart shows a new one, so restarting the box never
   * gives a guesser more tries. Wrong guesses are counted here, in the one process that answers them.
   */
  get code(): string {
    return this.currentCode;
  }

  list(): readonly WebClient[] {
    return this.clients;
  }

  pair(code: string, name: string): PairResult {
    const trimmed = name.trim();
    if (trimmed === "" || trimmed.length > MAX_NAME) return { ok: false, message: NAME_NEEDED };
    const typed = code.replace(/\s/g, "");
    const last = this.last;
    if (last && last.code === typed && last.name === trimmed && this.now() - last.at < REPEAT_MS && this.clients.includes(last.result.client))
      return last.result;
    if (typed !== this.currentCode) {
      this.wrong += 1;
      if (this.wrong < MAX_WRONG_CODES) return { ok: false, message: WRONG_CODE };
      this.currentCode = this.drawCode();
      this.wrong = 0;
      return { ok: false, message: CODE_REPLACED };
    }
    // A code pairs one browser: the next keypad reads a fresh one.
    this.currentCode = this.drawCode();
    this.wrong = 0;
    const token = randomBytes(32).toString("base64url");
    const client: WebClient = { id: randomUUID(), name: trimmed, tokenHash: hashOf(token), pairedAt: this.now(), lastSeen: null };
    this.clients = [...this.clients, client];
    this.save();
    const result = { ok: true as const, token, client };
    this.last = { code: typed, name: trimmed, at: this.now(), result };
    return result;
  }

  /**
   * The paired browser a token belongs to, or null. Its last-seen time is written to the store when the stored one
   * is SEEN_SAVE_MS old or more: a restarted box shows it within a minute, and a busy phone is not an fsync per entry.
   */
  verify(token: string | null): WebClient | null {
    if (!token || token.length > 100) return null;
    const hash = hashOf(token);
    const client = this.clients.find((c) => c.tokenHash === hash) ?? null;
    if (!client) return null;
    const stored = this.stored.has(client.id) ? this.stored.get(client.id)! : client.lastSeen;
    client.lastSeen = this.now();
    if (stored === null || client.lastSeen - stored >= SEEN_SAVE_MS) this.save();
    return client;
  }

  /** What the heartbeat tells the platform: the keypads paired last, as many as it takes, in pairing order. */
  report(): { id: string; name: string; last_seen: number | null }[] {
    return this.clients.slice(-MAX_REPORTED_WEBCLIENTS).map((c) => ({ id: c.id, name: c.name, last_seen: c.lastSeen }));
  }

  /** Unpairs a browser (a lost phone): its next entry is refused and it must pair again. */
  forget(id: string): boolean {
    const before = this.clients.length;
    this.clients = this.clients.filter((c) => c.id !== id);
    if (this.clients.length === before) return false;
    this.save();
    return true;
  }

  private save(): void {
    // Only hashes: the file is as safe to copy as the box's other state.
    writeFileAtomic(this.file, JSON.stringify({ clients: this.clients }, null, 2), 0o600);
    for (const client of this.clients) this.stored.set(client.id, client.lastSeen);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
