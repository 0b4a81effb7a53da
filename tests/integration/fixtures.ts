import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { initialMtimes } from "../../core/entity/field-mtimes";
import { clubs, races, sites, type Db } from "../../schema/d1";
import type { SiteConfig } from "../../schema/wire/site-config";
import workerModule from "../../workers/index";

const DAY_MS = 86_400_000;

/** A whitelabel site with its club and one race, each with fresh ids. */
export async function createSiteWithRace(
  db: Db,
  options: {
    hostname: string;
    siteName: string;
    raceName: string;
    colours?: SiteConfig["colours"];
    startInDays?: number;
    visibility?: "public" | "unlisted" | "private";
  },
) {
  const now = Date.now();
  const site = { id: crypto.randomUUID(), hostname: options.hostname, config: { name: options.siteName, colours: options.colours } };
  await db.insert(sites).values({ ...site, fieldMtimes: initialMtimes(site, now) });
  const club = { id: crypto.randomUUID(), name: `${options.siteName} Club`, siteId: site.id };
  await db.insert(clubs).values({ ...club, fieldMtimes: initialMtimes(club, now) });
  const race = {
    id: crypto.randomUUID(),
    clubId: club.id,
    siteId: site.id,
    name: options.raceName,
    startTime: now + (options.startInDays ?? 7) * DAY_MS,
    timezone: "America/Toronto",
    visibility: options.visibility ?? "public",
  };
  await db.insert(races).values({ ...race, fieldMtimes: initialMtimes(race, now) });
  return { site, club, race };
}

/** Fetches a path from the Worker as a browser on `host` would. */
export function hostRequest(host: string, path: string, init: RequestInit = {}): Request {
  const headers = new Headers(init.headers);
  headers.set("Host", host);
  return new Request(`http://${host}${path}`, { ...init, headers });
}

/** The Worker's env with a mail queue that records what is put on it instead of sending it. */
export function recordingEnv() {
  const sent: { body: unknown }[] = [];
  const queue = { sendBatch: async (messages: { body: unknown }[]) => void sent.push(...messages), send: async (body: unknown) => void sent.push({ body }) };
  return { env: { ...env, MAIL_QUEUE: queue as unknown as Queue }, sent };
}

/** Delivers these messages to the Worker's mail consumer as one batch, each at this attempt; what it acked or retried. */
export async function consumeMail(messages: { body: unknown }[], attempts = 1) {
  const batch = createMessageBatch(
    "startline-mail",
    messages.map((m, i) => ({ id: `m${i}`, timestamp: new Date(), attempts, body: m.body })),
  );
  const ctx = createExecutionContext();
  await workerModule.queue!(batch, env, ctx);
  return getQueueResult(batch, ctx);
}
