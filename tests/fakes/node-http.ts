// The fakes' HTTP servers (Stripe, Cloudflare) speak node:http outside and Web Requests inside.
import type http from "node:http";

/** A node:http request as a Web Request on `origin`, its body read whole. */
export async function toRequest(incoming: http.IncomingMessage, origin: string): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const method = incoming.method ?? "GET";
  const chunks: Buffer[] = [];
  if (method !== "GET" && method !== "HEAD") for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return new Request(new URL(incoming.url ?? "/", origin), { method, headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined });
}
