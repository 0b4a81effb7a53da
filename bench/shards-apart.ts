// `npm run bench -- --only apart`: the live path's 0- and 1,000-spectator figures with the spectator shards in a
// workerd process of their own, as production places them (a race's room and its shards are separate objects on
// machines of their own; locally one workerd runs every object on one thread, decision 0092). Two `wrangler dev`
// sessions of the same built Worker are joined by wrangler's dev registry: the room's Worker binds SPECTATOR_SHARD
// to the shards' Worker (script_name), which binds RACE_ROOM back. Devices post to the room's Worker, spectators
// connect to the shards' Worker's own workerd socket. Each figure's name ends in `_shards_apart`.
//
// Each session has its own copy of the seeded local state: the shards' Worker reads D1 only to open a socket (the
// race's catalogue row, which the seed holds). Its copy does not follow the room's, so this run stays at one shard's
// audience (1,000 sockets, under DEFAULT_SHARD_TARGET) where the catalogue's shard count does not change.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { migrateLocal } from "../scripts/migrate-local.mjs";
import { seedLocal } from "../scripts/seed";
import { root, wranglerBin } from "../scripts/wrangler-env.mjs";
import { findWorkerPort, serverProcesses } from "./live-procs";
import { startDetached, type BenchServer } from "./server";
import { runTimingApi } from "./timing-api";

const SHARDS_WORKER = "startline-shards";
const OPEN_FILES = 65_536;

/** wrangler.toml's development part, moved into `dir` (its paths made relative to there), with `edits` applied; each must match. */
function configFor(dir: string, edits: [string, string][]): string {
  const development = readFileSync(path.join(root, "wrangler.toml"), "utf8").split("\n[env.production]\n")[0]!;
  const moved = (file: string) => path.relative(dir, path.join(root, file));
  const relocations: [string, string][] = [
    ['main = "workers/index.ts"', `main = "${moved("workers/index.ts")}"`],
    ['directory = "build/client"', `directory = "${moved("build/client")}"`],
    ['"./build/server/index.js"', `"${moved("build/server/index.js")}"`],
    ['"./build-production/server/index.js"', `"${moved("build-production/server/index.js")}"`],
    ['"./workers/react-dom-in-worker.ts"', `"${moved("workers/react-dom-in-worker.ts")}"`],
    ['migrations_dir = "schema/migrations/d1"', `migrations_dir = "${moved("schema/migrations/d1")}"`],
  ];
  return [...relocations, ...edits].reduce((text, [from, to]) => {
    if (!text.includes(from)) throw new Error(`shards apart: wrangler.toml no longer has ${from}`);
    return text.replace(from, to);
  }, development);
}

function devArgs(config: string, port: number, state: string): string[] {
  // Inspector ports of their own: two sessions cannot share wrangler's default one.
  return [
    "dev",
    "-c",
    config,
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--local",
    "--var",
    `PUBLIC_PORT:${port}`,
    "--show-interactive-dev-session=false",
  ].concat(["--persist-to", state, "--log-level", "warn", "--inspector-port", String(port + 1000)]);
}

/** Runs the figures on `port` (the room's Worker) and `port + 1` (the shards'); false when a figure could not be measured. */
export async function runShardsApart(port: number): Promise<boolean> {
  const dir = path.join(root, ".wrangler", "shards-apart");
  mkdirSync(dir, { recursive: true });
  const roomConfig = path.join(dir, "room.toml");
  const shardsConfig = path.join(dir, "shards.toml");
  writeFileSync(roomConfig, configFor(dir, [['class_name = "SpectatorShard"\n', `class_name = "SpectatorShard"\nscript_name = "${SHARDS_WORKER}"\n`]]));
  writeFileSync(
    shardsConfig,
    configFor(dir, [
      ['name = "startline"\n', `name = "${SHARDS_WORKER}"\n`],
      ['class_name = "RaceRoom"\n', 'class_name = "RaceRoom"\nscript_name = "startline"\n'],
    ]),
  );
  const roomState = path.join(root, ".wrangler", `bench-state-${port}`);
  const shardsState = `${roomState}-shards`;
  for (const state of [roomState, shardsState]) rmSync(state, { recursive: true, force: true });
  migrateLocal(roomState);
  await seedLocal(roomState);
  cpSync(roomState, shardsState, { recursive: true });

  const started: BenchServer[] = [];
  try {
    // The shards' Worker first, so the room's binding finds it in the registry from its first request.
    const shards = await startDetached(port + 1, wranglerBin, devArgs(shardsConfig, port + 1, shardsState), { openFiles: OPEN_FILES });
    started.push(shards);
    const room = await startDetached(port, wranglerBin, devArgs(roomConfig, port, roomState), { openFiles: OPEN_FILES });
    started.push(room);
    const shardsWorker = serverProcesses(shards.pid, port + 1).worker;
    const spectatorPort = shardsWorker !== null ? await findWorkerPort(shardsWorker, "localhost") : null;
    if (spectatorPort === null) {
      console.error("timing: NOT MEASURED: every shards-apart figure: the shards' Worker's own port was not found");
      return false;
    }
    return await runTimingApi(port, room.pid, { spectatorPort, pid: shardsWorker });
  } finally {
    for (const server of started.reverse()) await server.stop();
  }
}
