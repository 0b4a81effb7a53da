/**
 * The Worker's cron triggers under `npm start`: `wrangler dev` does not fire them by itself, so waitlist offers
 * and scheduled newsletters would never go out locally. Each minute this fires every trigger of wrangler.toml
 * whose minute field matches, through the development Worker's /_dev/cron (wrangler's own
 * /cdn-cgi/handler/scheduled answers "exception" for a Worker with static assets here).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { send } from "../bench/http";

/** The triggers' minute fields we use: "*\/5" (every five minutes) and a fixed minute ("17"). */
export function minuteMatches(cron: string, minute: number): boolean {
  const field = cron.trim().split(/\s+/)[0] ?? "";
  const every = /^\*\/(\d+)$/.exec(field);
  if (every) return minute % Number(every[1]) === 0;
  if (field === "*") return true;
  return field.split(",").some((part) => Number(part) === minute);
}

export function cronsOf(root: string): string[] {
  const toml = readFileSync(path.join(root, "wrangler.toml"), "utf8");
  const line = /^\s*crons\s*=\s*\[(.*)\]/m.exec(toml)?.[1] ?? "";
  return [...line.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
}

export function startLocalCron(root: string, port: number): () => void {
  const crons = cronsOf(root);
  let last = -1;
  const timer = setInterval(() => {
    const now = new Date();
    const minute = now.getUTCMinutes();
    if (minute === last) return;
    last = minute;
    for (const cron of crons.filter((c) => minuteMatches(c, minute))) {
      send(port, "localhost", "POST", "/_dev/cron", JSON.stringify({ cron }), { "Content-Type": "application/json" })
        .catch((error: unknown) => console.error(`The local cron "${cron}" could not be fired`, error))
        .then((reply) => {
          if (reply && reply.status !== 200) console.error(`The local cron "${cron}" failed (${reply.status}): ${reply.body}`);
        });
    }
  }, 15_000);
  return () => clearInterval(timer);
}
