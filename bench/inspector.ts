// The Worker's inspector under `wrangler dev` (the proxy wrangler opens on 9229): one session, calls with a
// deadline each, and a broken socket failing every call still waiting.
import WebSocket from "ws";

export const CALL_TIMEOUT_MS = 15_000;

export type Call = <T>(method: string, params?: Record<string, unknown>, timeoutMs?: number) => Promise<T>;

/** Opens the first target of the inspector at `base`, runs `work` with a call function, and closes it. */
export async function inspect<T>(base: string, work: (call: Call) => Promise<T>, onEvent?: (method: string, params: unknown) => void): Promise<T> {
  const listing = await fetch(`${base}/json`, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
  const targets = (await listing.json()) as { webSocketDebuggerUrl: string }[];
  if (targets.length === 0) throw new Error(`no inspector target at ${base}`);
  const ws = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  const waiting = new Map<number, (result: unknown) => void>();
  // A socket that breaks fails every call still waiting, instead of leaving them to their timeouts.
  const failAll = (error: Error) => {
    for (const settle of waiting.values()) settle(error);
    waiting.clear();
  };
  ws.on("error", failAll);
  ws.on("close", () => failAll(new Error("the inspector closed the connection")));
  ws.on("message", (data: Buffer) => {
    const message = JSON.parse(data.toString()) as { id?: number; method?: string; params?: unknown; result?: unknown; error?: { message: string } };
    if (message.id === undefined) {
      if (message.method) onEvent?.(message.method, message.params);
      return;
    }
    waiting.get(message.id)?.(message.error ? new Error(message.error.message) : message.result);
    waiting.delete(message.id);
  });
  let nextId = 0;
  const call = <T>(method: string, params: Record<string, unknown> = {}, timeoutMs = CALL_TIMEOUT_MS): Promise<T> => {
    const id = ++nextId;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method}: no answer within ${timeoutMs} ms`)), timeoutMs);
      waiting.set(id, (result) => {
        clearTimeout(timer);
        if (result instanceof Error) reject(result);
        else resolve(result as T);
      });
      ws.send(JSON.stringify({ id, method, params }));
    });
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no connection within ${CALL_TIMEOUT_MS} ms`)), CALL_TIMEOUT_MS);
    ws.once("open", () => (clearTimeout(timer), resolve()));
    ws.once("error", (error) => (clearTimeout(timer), reject(error)));
  });
  try {
    return await work(call);
  } finally {
    ws.close();
  }
}
