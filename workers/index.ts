// The development and test entry (`npm start`, vitest): the Worker with the /_dev helpers that set up the demo.
import * as remixBuild from "remix-server-build";
import { handleDevAgeSession } from "./dev/age-session";
import { handleDevBulkRows } from "./dev/bulk-rows";
import { handleDevCron } from "./dev/cron";
import { handleDevDemoRace } from "./dev/demo-race";
import { handleDevDemoSeries } from "./dev/demo-series";
import { handleDevDemoSprint } from "./dev/demo-sprint";
import { createWorker } from "./worker";

export { DataHub } from "../durable/data-hub";
export { RaceRoom } from "../durable/race-room";
export { SpectatorShard } from "../durable/spectator-shard";

export default createWorker(remixBuild, [
  { prefix: "/_dev/demo-race", handle: handleDevDemoRace },
  { prefix: "/_dev/demo-sprint", handle: handleDevDemoSprint },
  { prefix: "/_dev/demo-series", handle: handleDevDemoSeries },
  { prefix: "/_dev/age-session", handle: handleDevAgeSession },
  { prefix: "/_dev/bulk-rows", handle: handleDevBulkRows },
  { prefix: "/_dev/cron", handle: handleDevCron },
]);
