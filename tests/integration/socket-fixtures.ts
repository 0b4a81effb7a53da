import { expect } from "vitest";
import { dataServerMessageSchema, type DataServerMessage } from "../../schema/wire/data-socket";
import { worker } from "./auth-fixtures";
import { hostRequest } from "./fixtures";

/** Opens a data-service socket through the Worker on `host`; `auth` sends api-auth and waits for hello. */
export async function openSocket(instance = "test-instance", host = "localhost") {
  const response = await worker.fetch(hostRequest(host, `/data-api/socket?instance=${instance}`, { headers: { Upgrade: "websocket" } }));
  expect(response.status).toBe(101);
  const socket = response.webSocket!;
  const frames: DataServerMessage[] = [];
  const waiters: (() => void)[] = [];
  let closed: number | null = null;
  socket.addEventListener("message", (event) => {
    frames.push(dataServerMessageSchema.parse(JSON.parse(String(event.data))));
    waiters.splice(0).forEach((wake) => wake());
  });
  socket.addEventListener("close", (event) => {
    closed = event.code;
    waiters.splice(0).forEach((wake) => wake());
  });
  socket.accept();
  const next = async <T extends DataServerMessage["type"]>(type: T): Promise<Extract<DataServerMessage, { type: T }>> => {
    for (;;) {
      const index = frames.findIndex((f) => f.type === type);
      if (index >= 0) return frames.splice(index, 1)[0] as Extract<DataServerMessage, { type: T }>;
      if (closed !== null) throw new Error(`closed ${closed} before ${type}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  const waitClosed = async () => {
    while (closed === null) await new Promise<void>((resolve) => waiters.push(resolve));
    return closed;
  };
  const auth = async (token: string) => {
    socket.send(JSON.stringify({ type: "api-auth", token }));
    return next("hello");
  };
  return { socket, frames, next, auth, waitClosed };
}
