/**
 * An example third-party app on the data-service SDK: it authorises through the browser (OAuth 2 with PKCE),
 * lists registrations as CSV, then follows one registration over the socket and prints each live change.
 *
 *   npx tsx sdk/examples/registrations-live.ts [--base http://localhost:8787] [--client <id>] [--touch]
 *
 * Defaults fit `npm start`: the seeded "Demo Results App", whose registered redirect is
 * http://127.0.0.1:8790/callback. --touch renames the registration once subscribed, to show an update arrive.
 */
import { createServer, type Server } from "node:http";
import WebSocket from "ws";
import { DataClient, type WebSocketConstructor } from "../index";

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? args[index + 1]! : fallback;
};
const baseUrl = option("base", "http://localhost:8787");
const clientId = option("client", "b7c8d9e0-5a2b-4c3d-8e4f-6a7b8c9d0e01");
const redirectUri = option("redirect", "http://127.0.0.1:8790/callback");
const touch = args.includes("--touch");
const waitForUpdates = Number(option("updates", "1"));

const client = new DataClient({ baseUrl, clientId, redirectUri, scope: "registrations races" });

/** Serves the redirect URI until the browser comes back with a code. */
function awaitCallback(): Promise<void> {
  const target = new URL(redirectUri);
  return new Promise((resolve, reject) => {
    const server: Server = createServer((request, response) => {
      if (!request.url?.startsWith(target.pathname)) {
        response.writeHead(404).end();
        return;
      }
      client.completeAuthorization(request.url).then(
        () => {
          response
            .writeHead(200, { "Content-Type": "text/html; charset=utf-8" })
            .end("<h1>Authorised</h1><p>You can close this tab and return to the terminal.</p>");
          server.close();
          resolve();
        },
        (error: unknown) => {
          response.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" }).end(`Authorisation failed: ${String(error)}`);
          server.close();
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
    server.listen(Number(target.port), target.hostname);
  });
}

async function main(): Promise<void> {
  const callback = awaitCallback();
  console.log(`AUTHORIZE ${await client.beginAuthorization()}`);
  console.log("Open that URL in a browser, sign in and press Authorize.");
  await callback;
  console.log("AUTHORISED");

  const list = await client.list("Registration", { limit: 100, sort: "name" });
  console.log(`REGISTRATIONS ${list.total ?? list.rows.length}`);
  process.stdout.write(list.csv);
  const first = list.rows[0];
  if (!first || typeof first.uuid !== "string") {
    console.log("No registrations to follow.");
    return;
  }

  const socket = client.socket({ WebSocket: WebSocket as unknown as WebSocketConstructor, onError: (error) => console.error(`socket: ${error.message}`) });
  let received = 0;
  const done = new Promise<void>((resolve) => {
    void socket.subscribe("Registration", first.uuid as string, (frame) => {
      received++;
      console.log(`UPDATE ${JSON.stringify({ uuid: frame.uuid, fields: frame.fields, deleted: frame.deleted ?? false })}`);
      if (received >= waitForUpdates) resolve();
    });
  });
  await new Promise<void>((resolve) => {
    socket.onStateChange((state) => {
      if (state === "ready") resolve();
    });
    socket.connect();
  });
  // The subscription is sent once the socket says hello; give it a moment to be acknowledged.
  await new Promise((resolve) => setTimeout(resolve, 300));
  console.log(`FOLLOWING ${String(first.uuid)} (${String(first.name)})`);
  if (touch) await client.update("Registration", first.uuid as string, { name: `${String(first.name)} (updated ${new Date().toISOString()})` });
  await done;
  socket.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
