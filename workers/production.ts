// The production entry (`wrangler deploy --env production`): the Worker without any /_dev mount.
// The Remix build made with STARTLINE_TARGET=production: the dev routes are not in it (vite.config.ts).
import * as remixBuild from "remix-production-build";
import { createWorker } from "./worker";

export { DataHub } from "../durable/data-hub";
export { RaceRoom } from "../durable/race-room";
export { SpectatorShard } from "../durable/spectator-shard";

export default createWorker(remixBuild, []);
