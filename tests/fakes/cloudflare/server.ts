// The Cloudflare Custom Hostnames fake over real HTTP on 127.0.0.1, for `npm start`, the browser tests and trials by hand:
//   tsx tests/fakes/cloudflare/server.ts --port 12287
// Point the Worker at it with CLOUDFLARE_API_BASE=http://127.0.0.1:12287/client/v4 and the zone and token it prints.
// `curl -X POST http://127.0.0.1:12287/__fake/custom_hostnames/club.example.org/activate` takes a domain live at once.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { toRequest } from "../node-http";
import { createCloudflareFake, type CloudflareFake, type FakeHostname } from "./custom-hostnames";

/** Not secrets: the fake listens on loopback only, and these are what the local Worker is given. */
export const LOCAL_ZONE_ID = "023e105f4ecef8ad9ca31a8372d0c353";
export const LOCAL_API_TOKEN = "local-cloudflare-token";

export interface CloudflareFakeServer {
  url: string;
  /** CLOUDFLARE_API_BASE for the Worker. */
  apiBase: string;
  fake: CloudflareFake;
  close: () => Promise<void>;
}

export async function startCloudflareFakeServer(
  options: { port?: number; pollsPerStep?: number; log?: boolean; stateFile?: string } = {},
): Promise<CloudflareFakeServer> {
  const { stateFile } = options;
  // Kept beside the local D1, so a restarted `npm start` still knows the domains the database names.
  const initial = stateFile && existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, "utf8")) as FakeHostname[]) : [];
  const onChange = stateFile
    ? (hostnames: FakeHostname[]) => {
        mkdirSync(path.dirname(stateFile), { recursive: true });
        writeFileSync(stateFile, JSON.stringify(hostnames, null, 2));
      }
    : undefined;
  const fake = createCloudflareFake({ zoneId: LOCAL_ZONE_ID, token: LOCAL_API_TOKEN, pollsPerStep: options.pollsPerStep ?? 1, initial, onChange });
  const server = http.createServer((incoming, outgoing) => {
    void (async () => {
      try {
        const request = await toRequest(incoming, "http://127.0.0.1");
        const response = await fake.fetch(request);
        if (options.log) console.log(`cloudflare-fake ${incoming.method} ${incoming.url} → ${response.status}`);
        outgoing.writeHead(response.status, Object.fromEntries(response.headers));
        outgoing.end(Buffer.from(await response.arrayBuffer()));
      } catch (error) {
        console.error("cloudflare-fake: request failed", error);
        if (!outgoing.headersSent) outgoing.writeHead(500, { "Content-Type": "text/plain" });
        outgoing.end("Cloudflare fake failed\n");
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    apiBase: `${url}/client/v4`,
    fake,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: "string" }, "polls-per-step": { type: "string" }, quiet: { type: "boolean", default: false } } });
  const port = Number(values.port ?? process.env.CLOUDFLARE_FAKE_PORT ?? "12287");
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`cloudflare-fake: not a port: ${values.port}`);
    process.exit(2);
  }
  const server = await startCloudflareFakeServer({ port, pollsPerStep: Number(values["polls-per-step"] ?? "1"), log: !values.quiet });
  console.log(
    `Cloudflare fake on ${server.url}: CLOUDFLARE_API_BASE=${server.apiBase} CLOUDFLARE_ZONE_ID=${LOCAL_ZONE_ID} CLOUDFLARE_API_TOKEN=${LOCAL_API_TOKEN}`,
  );
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void server.close().then(() => process.exit(0)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
