// The Stripe fake over real HTTP on 127.0.0.1, for browser tests and manual trials:
//   tsx tests/fakes/stripe/server.ts --port 12111 --webhook-url http://127.0.0.1:8787/_payments/stripe/webhook --webhook-secret whsec_…
// Point the Worker at it with STRIPE_API_BASE=http://127.0.0.1:12111 and the same STRIPE_WEBHOOK_SECRET.
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { toRequest } from "../node-http";
import { createStripeFake, type StripeFake, type StripeFakeOptions } from "./fake";

export interface StripeFakeServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  webhookUrl: string;
  webhookSecret: string;
  /** A Host header for webhook posts, e.g. demo.localhost:8787 for a whitelabel host; Node's fetch would drop it. */
  webhookHost?: string;
  /** Prints each request and webhook delivery. */
  log?: boolean;
  businessName?: StripeFakeOptions["businessName"];
}

export interface StripeFakeServer {
  url: string;
  fake: StripeFake;
  close: () => Promise<void>;
}

/** Posts with node:http, which (unlike fetch) sends the Host header it is given. */
async function postWithHost(request: Request, host: string): Promise<Response> {
  const url = new URL(request.url);
  const body = Buffer.from(await request.arrayBuffer());
  const headers: Record<string, string> = { ...Object.fromEntries(request.headers), host, "content-length": String(body.length) };
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.request(url, { method: request.method, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(", ") : value);
        }
        resolve(new Response(Buffer.concat(chunks), { status: incoming.statusCode ?? 502, headers: responseHeaders }));
      });
      incoming.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

export async function startStripeFakeServer(options: StripeFakeServerOptions): Promise<StripeFakeServer> {
  // Filled in once listening, since the fake's hosted-page URLs need the port the server got.
  const state: { fake: StripeFake | null; origin: string } = { fake: null, origin: "" };
  const server = http.createServer((incoming, outgoing) => {
    void (async () => {
      try {
        if (!state.fake) throw new Error("Stripe fake is not listening yet");
        const response = await state.fake.fetch(await toRequest(incoming, state.origin));
        if (options.log) console.log(`stripe-fake ${incoming.method} ${incoming.url} → ${response.status}`);
        outgoing.writeHead(response.status, Object.fromEntries(response.headers));
        outgoing.end(Buffer.from(await response.arrayBuffer()));
      } catch (error) {
        console.error("stripe-fake: request failed", error);
        if (!outgoing.headersSent) outgoing.writeHead(500, { "Content-Type": "text/plain" });
        outgoing.end("Stripe fake failed\n");
      }
    })();
  });
  // Loopback only: the fake takes any sk_test_ key, so it must not be reachable from elsewhere.
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { webhookHost } = options;
  const fake = createStripeFake({
    baseUrl: origin,
    webhookUrl: options.webhookUrl,
    webhookSecret: options.webhookSecret,
    businessName: options.businessName,
    deliver: async (request) => {
      const type = options.log ? ((JSON.parse(await request.clone().text()) as { type?: string }).type ?? "?") : "";
      const response = webhookHost ? await postWithHost(request, webhookHost) : await fetch(request);
      if (options.log) console.log(`stripe-fake webhook ${type} → ${response.status}`);
      return response;
    },
  });
  state.fake = fake;
  state.origin = origin;
  return {
    url: origin,
    fake,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      "webhook-url": { type: "string" },
      "webhook-secret": { type: "string" },
      "webhook-host": { type: "string" },
      quiet: { type: "boolean", default: false },
    },
  });
  const port = Number(values.port ?? process.env.STRIPE_FAKE_PORT ?? "12111");
  const webhookUrl = values["webhook-url"] ?? process.env.STRIPE_WEBHOOK_URL ?? "http://127.0.0.1:8787/_payments/stripe/webhook";
  const webhookSecret = values["webhook-secret"] ?? process.env.STRIPE_WEBHOOK_SECRET;
  const webhookHost = values["webhook-host"] ?? process.env.STRIPE_WEBHOOK_HOST;
  if (!webhookSecret) {
    console.error("stripe-fake: give --webhook-secret whsec_… (or STRIPE_WEBHOOK_SECRET), the same secret the Worker verifies with.");
    process.exit(2);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`stripe-fake: not a port: ${values.port ?? process.env.STRIPE_FAKE_PORT}`);
    process.exit(2);
  }
  const server = await startStripeFakeServer({ port, webhookUrl, webhookSecret, webhookHost, log: !values.quiet });
  console.log(`Stripe fake on ${server.url} (STRIPE_API_BASE=${server.url}); webhooks to ${webhookUrl}${webhookHost ? ` as Host ${webhookHost}` : ""}`);
  console.log("Test cards: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined.");
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      void server.close().then(() => process.exit(0));
    });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
