// The send floor's Worker (bench/send-floor.ts): spectator sockets placed at random on `shards` Durable Objects,
// and a blast that asks every shard at once to send one frame to all its sockets. Nothing else runs, so the time
// a frame takes to reach every socket is what workerd's own sends cost here: the floor under the platform's figure.
import { DurableObject } from "cloudflare:workers";

interface Env {
  SHARD: DurableObjectNamespace<FloorShard>;
}

/** As many as the platform's race rooms allow a socket to name (a bench asks for a few). */
const MAX_SHARDS = 64;
/** The largest frame the blast sends (the platform's frames are a few hundred bytes to a few KiB). */
const MAX_BYTES = 65_536;

export class FloorShard extends DurableObject<Env> {
  override async fetch(): Promise<Response> {
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    pair[1].send('{"type":"hello"}');
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  /** One frame to every socket this shard holds, as the platform's shard sends a frame; how many it reached. */
  blast(frame: string): number {
    let sent = 0;
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(frame);
        sent++;
      } catch {
        // Closed meanwhile.
      }
    }
    return sent;
  }

  override webSocketMessage(ws: WebSocket): void {
    ws.send('{"type":"pong"}');
  }

  override webSocketClose(): void {}
}

function boundedInt(value: string | null, fallback: number, max: number): number | null {
  const n = value === null ? fallback : Number(value);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : null;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    // The bench's readiness probe, as for the platform's server.
    if (url.pathname === "/favicon.ico") return new Response("", { status: 200 });
    const shards = boundedInt(url.searchParams.get("shards"), 1, MAX_SHARDS);
    if (shards === null) return new Response(`shards must be 1 to ${MAX_SHARDS}`, { status: 400 });
    const shard = (i: number) => env.SHARD.get(env.SHARD.idFromName(`shard:${i}`));
    if (url.pathname === "/socket") {
      if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("Connect with a WebSocket", { status: 426 });
      return shard(crypto.getRandomValues(new Uint32Array(1))[0]! % shards).fetch(request);
    }
    if (url.pathname === "/blast" && request.method === "POST") {
      const bytes = boundedInt(url.searchParams.get("bytes"), 512, MAX_BYTES);
      const marker = url.searchParams.get("marker") ?? "";
      if (bytes === null || !/^[\w-]{1,64}$/.test(marker)) return new Response("bytes must be 1 to 65536 and marker a short word", { status: 400 });
      const frame = JSON.stringify({ type: "rows", marker, pad: "x".repeat(Math.max(0, bytes - marker.length - 30)) });
      const sent = await Promise.all(Array.from({ length: shards }, (_, i) => shard(i).blast(frame)));
      return Response.json({ sent: sent.reduce((a, b) => a + b, 0) });
    }
    return new Response("Not found", { status: 404 });
  },
} satisfies ExportedHandler<Env>;
