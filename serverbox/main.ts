/**
 * `npm run serverbox [-- race <raceId> [<raceId>…]] [--server <url>] [--store <dir>] [--port <n>] [--name <name>] [--lan <port> [--lan-host <address>]]`:
 * a local timing server (docs/api/serverbox-api.md, decisions 0060, 0067). Pairs on its first run, times the
 * races it was given (or chosen on its page) with or without a connection, and syncs each when it can.
 */
import { networkInterfaces } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Serverbox } from "./box";
import { startLanServer } from "./lan-server";
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
  /** The web keypads' listener on the venue's network (decision 0084), or null when not asked for. */
  lan: { host: string; port: number } | null;
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
        lan: { type: "string" },
        "lan-host": { type: "string", default: "0.0.0.0" },
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
  const lanPort = values.lan === undefined ? null : Number(values.lan);
  if (lanPort !== null && (!Number.isInteger(lanPort) || lanPort < 1 || lanPort > 65535 || lanPort === port))
    return `--lan must be a port number other than --port, not "${values.lan}"`;
  const retryCap = Number(values["retry-cap"]);
  const heartbeat = Number(values.heartbeat);
  if (!(retryCap >= 1) || !(heartbeat >= 1)) return "--retry-cap and --heartbeat are seconds, at least 1";
  if (positionals.length > 0 && (positionals[0] !== "race" || positionals.length < 2))
    return "Usage: npm run serverbox -- [race <raceId> [<raceId>…]] [--server <url>] [--store <dir>] [--port <n>] [--name <name>] [--lan <port> [--lan-host <address>]]";
  return {
    server: values.server,
    store: path.resolve(values.store),
    port,
    name: values.name,
    raceIds: positionals.slice(1),
    retryCapMs: retryCap * 1000,
    heartbeatMs: heartbeat * 1000,
    lan: lanPort === null ? null : { host: values["lan-host"], port: lanPort },
  };
}

/** Where phones reach the keypad: the address given, or each of this machine's IPv4 addresses on a network. */
export function keypadUrlsFor(host: string, port: number): string[] {
  if (host !== "0.0.0.0") return [`http://${host.includes(":") ? `[${host}]` : host}:${port}/keypad`];
  const addresses = Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && a.family === "IPv4" && !a.internal)
    .map((a) => a!.address);
  return (addresses.length > 0 ? addresses : ["127.0.0.1"]).map((a) => `http://${a}:${port}/keypad`);
}

async function startLan(box: Serverbox, lan: { host: string; port: number }) {
  const server = await startLanServer(box, lan.host, lan.port).catch((error: unknown) => {
    console.error(`Cannot listen on ${lan.host}:${lan.port} for web keypads: ${String(error)}`);
    process.exit(1);
  });
  box.keypadUrls = keypadUrlsFor(lan.host, lan.port);
  console.log(`Web keypads: open ${box.keypadUrls.join(" or ")} and type the code ${box.webClients.code} (also on the box's page).`);
  return server;
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
  const lanServer = cli.lan === null ? null : await startLan(box, cli.lan);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const listening of [server, lanServer]) {
      listening?.close();
      listening?.closeAllConnections();
    }
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
