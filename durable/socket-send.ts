/**
 * Sending to many hibernating sockets without one closed socket, or one large audience, stopping the rest: the
 * spectator shard's send helpers.
 */
import type { RaceServerMessage } from "../schema/wire/race-socket";
import type { WireFrame } from "./frame-history";

export function send(ws: WebSocket, message: RaceServerMessage): void {
  sendRaw(ws, JSON.stringify(message));
}

/** Sockets sent to in one turn of the event loop before the shard lets other work run (below). */
const SEND_SLICE = 200;

/**
 * One frame to many sockets, a slice per turn: a shard may share its thread with its race room (locally always;
 * on Cloudflare objects may share an isolate), and a device's batch should not wait behind thousands of sends.
 * The shard's queue keeps frames in order, so a later frame never overtakes one still being sent.
 */
export async function sendInSlices(sockets: readonly WebSocket[], wire: WireFrame): Promise<void> {
  for (let i = 0; i < sockets.length; i += SEND_SLICE) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    for (const ws of sockets.slice(i, i + SEND_SLICE)) sendRaw(ws, wire);
  }
}

// A socket closing under us must not stop the frame reaching the others.
export function sendRaw(ws: WebSocket, frame: WireFrame): void {
  try {
    ws.send(frame);
  } catch {
    // The close handler tidies up.
  }
}

export function closeQuietly(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason);
  } catch {
    // Already closed.
  }
}
