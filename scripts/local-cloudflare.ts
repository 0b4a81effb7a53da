// The local Cloudflare Custom Hostnames fake beside a local Worker (npm start, browser tests): on the Worker's port
// + 3500 (or CLOUDFLARE_FAKE_PORT), one step towards live per poll, its hostnames kept in `stateFile` when given,
// and the `--var`s that point the Worker at it.
import { LOCAL_API_TOKEN, LOCAL_ZONE_ID, startCloudflareFakeServer } from "../tests/fakes/cloudflare/server";

export async function startLocalCloudflare(workerPort: string, stateFile?: string) {
  const fake = await startCloudflareFakeServer({ port: Number(process.env.CLOUDFLARE_FAKE_PORT ?? Number(workerPort) + 3500), stateFile });
  const vars = [`CLOUDFLARE_API_BASE:${fake.apiBase}`, `CLOUDFLARE_ZONE_ID:${LOCAL_ZONE_ID}`, `CLOUDFLARE_API_TOKEN:${LOCAL_API_TOKEN}`];
  let closing: Promise<void> | null = null;
  const close = () => (closing ??= fake.close().catch((error: unknown) => console.error("cloudflare-fake: close failed", error)));
  return { url: fake.url, vars, close };
}
