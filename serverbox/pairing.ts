/**
 * Pairing as RFC 8628's device grant (docs/api/serverbox-api.md, decision 0055): ask for a code, show it,
 * poll at the interval the platform sets (longer after `slow_down`), ask again when a code expires, and keep
 * the token before anything else: it is handed out once.
 */
import { backoffDelay, SYNC_BACKOFF } from "../core/servers/backoff";
import type { CloudClient } from "./cloud";
import type { BoxStore, Identity } from "./store";

export interface PairingIo {
  log: (line: string) => void;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  random: () => number;
  /** Stops the loop (the box is shutting down). */
  stopped?: () => boolean;
  /** A new code to show (the box's page shows it too). */
  showCode?: (userCode: string, uri: string) => void;
}

export type PairingOutcome = { paired: true; identity: Identity } | { paired: false; message: string };

/** Pairs the box and stores its token; returns when paired, refused, or stopped. */
export async function pairBox(cloud: CloudClient, store: BoxStore, identity: Identity, io: PairingIo): Promise<PairingOutcome> {
  let failures = 0;
  while (!io.stopped?.()) {
    const started = await cloud.pair(identity.serial, identity.name);
    if (started.kind !== "ok") {
      if (started.kind === "http" && started.status === 429) io.log(`The platform refused a new pairing for now: ${started.message}`);
      else if (started.kind === "http" && started.status < 500) return { paired: false, message: `Pairing refused: ${started.message}` };
      else io.log(`Cannot reach ${cloud.server} to pair (${started.kind === "network" ? started.message : `HTTP ${started.status}`}); trying again`);
      await io.sleep(started.kind === "http" && started.retryAfterMs !== null ? started.retryAfterMs : backoffDelay(SYNC_BACKOFF, failures++, io.random()));
      continue;
    }
    failures = 0;
    const grant = started.body;
    io.showCode?.(grant.user_code, grant.verification_uri);
    io.log("");
    io.log(`To pair this serverbox, a club administrator opens ${grant.verification_uri}`);
    io.log(`and enters the code ${grant.user_code}   (or opens ${grant.verification_uri_complete})`);
    io.log("");
    const expiresAt = io.now() + grant.expires_in * 1000;
    let interval = grant.interval * 1000;
    while (!io.stopped?.()) {
      await io.sleep(interval);
      if (io.now() >= expiresAt) break;
      const polled = await cloud.pollToken(grant.device_code);
      if (polled.kind === "ok") {
        // Kept before anything else: the platform will not hand this token out again.
        const paired: Identity = { ...identity, token: polled.body.server_token, serverId: polled.body.server_id, clubId: polled.body.club_id };
        store.saveIdentity(paired);
        io.log(`Paired with club ${polled.body.club_id}.`);
        return { paired: true, identity: paired };
      }
      if (polled.kind === "network" || polled.status >= 500) continue;
      if (polled.error === "authorization_pending") continue;
      if (polled.error === "slow_down") {
        interval = typeof polled.body.interval === "number" ? polled.body.interval * 1000 : interval + 5000;
        continue;
      }
      if (polled.error === "expired_token") break;
      return { paired: false, message: `${polled.message}. Run the serverbox again to pair it.` };
    }
    if (!io.stopped?.()) io.log("The code expired before anyone approved it; here is a new one.");
  }
  return { paired: false, message: "Stopped before pairing." };
}
