/**
 * `npm run serverbox [-- race <raceId> [<raceId>…]] [--server <url>] [--store <dir>] [--port <n>] [--name <name>]`:
 * a local timing server (docs/api/serverbox-api.md, decisions 0060, 0067). Pairs on its first run, times the
 * races it was given (or chosen on its page) with or without a connection, and syncs each when it can.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Serverbox } from "./box";
import { startLocalServer } from "./local-server";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface Cli {
  server: string;
  store: string;
  port: number;
  name: string | undefined;
  raceIds: string[];
  retryCapMs: number;
  heartbeatMs: number;
}

/** The command line, or the words that say what is wrong with it. */
export function parseCli(argv: string[]): Cli | string {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        server: { type: "string", default: "http://localhost:8787" },
        store: { type: "string", default: path.join(root, ".serverbox") },
        port: { type: "string", default: "8788" },
        name: { type: "string" },
        "retry-cap": { type: "string", default: "30" },
        heartbeat: { type: "string", default: "60" },
      },
    });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const { values, positionals } = parsed;
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return `--port must be a port number, not "${values.port}"`;
  try {
    new URL(values.server);
  } catch {
    return `--server must be a URL such as http://localhost:8787, not "${values.server}"`;
  }
  const retryCap = Number(values["retry-cap"]);
  const heartbeat = Number(values.heartbeat);
  if (!(retryCap >= 1) || !(heartbeat >= 1)) return "--retry-cap and --heartbeat are seconds, at least 1";
  if (positionals.length > 0 && (positionals[0] !== "race" || positionals.length < 2))
    return "Usage: npm run serverbox -- [race <raceId> [<raceId>…]] [--server <url>] [--store <dir>] [--port <n>] [--name <name>]";
  return {
    server: values.server,
    store: path.resolve(values.store),
    port,
    name: values.name,
    raceIds: positionals.slice(1),
    retryCapMs: retryCap * 1000,
    heartbeatMs: heartbeat * 1000,
  };
}

async function main(): Promise<void> {
  const cli = parseCli(process.argv.slice(2));
  if (typeof cli === "string") {
    console.error(cli);
    process.exit(2);
  }
  const box = new Serverbox({ server: cli.server, storeDir: cli.store, name: cli.name, backoff: { baseMs: 1_000, capMs: cli.retryCapMs } });
  const server = await startLocalServer(box, cli.port).catch((error: unknown) => {
    console.error(`Cannot listen on 127.0.0.1:${cli.port}: ${String(error)}`);
    process.exit(1);
  });
  console.log(`Serverbox ${box.identity.name} (${box.identity.serial}), store ${cli.store}`);
  console.log(`Its page: http://127.0.0.1:${cli.port}/   Devices post reads to http://127.0.0.1:${cli.port}/timing-api/races/<raceId>/reads`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close();
    server.closeAllConnections();
    void box.stop().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // The races kept from the last run (and those named now) are timed at once, offline or not.
  const kept = [...new Set([...box.identity.raceIds, ...cli.raceIds])];
  for (const raceId of kept) if (await box.openRace(raceId)) console.log(`Timing ${box.timings.get(raceId)!.race.name} (kept in the store).`);
  box.startHeartbeat(cli.heartbeatMs);
  await box.ensurePaired();
  if (!box.paired) return stop();
  console.log(`Paired (club ${box.identity.clubId}).`);
  // Taken again when online, so each setup is the platform's latest (new racers, chips); offline the kept copy serves.
  for (const raceId of kept) {
    const taken = await box.takeRace(raceId);
    const timing = box.timings.get(raceId);
    if (taken.ok && timing) console.log(`Timing ${timing.race.name}: ${timing.race.devices.length} devices may post reads.`);
    else if (!taken.ok) console.error(`Cannot take race ${raceId}: ${taken.message}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
