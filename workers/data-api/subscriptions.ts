/**
 * `POST /data-api/{Class}/{uuid}/subscribe?conn=` follows an entity the caller can read on one of its sockets;
 * `DELETE` on the same path stops following it.
 */
import type { EntityClass } from "../../schema/entities/registry";
import { channelOf } from "../../schema/wire/data-socket";
import { json } from "../http";
import type { RequestContext } from "../request-context";
import { readVisible, type Caller } from "./entities";
import { badRequest, methodNotAllowed, noSuch } from "./errors";
import { hubFor } from "./hub-client";

export async function subscribe(request: Request, context: RequestContext, caller: Caller, entity: EntityClass, id: string): Promise<Response> {
  if (request.method !== "POST" && request.method !== "DELETE") return methodNotAllowed("POST, DELETE");
  const conn = new URL(request.url).searchParams.get("conn") ?? "";
  if (!/^[0-9a-f-]{36}$/.test(conn)) return badRequest("conn must be the connection id from the socket's hello");
  if (request.method === "DELETE") {
    const done = await hubFor(context).unsubscribe(conn, channelOf(entity.classname, id), { userId: caller.userId, appId: caller.appId });
    return done ? new Response(null, { status: 204 }) : json({ error: "not_found", message: "No such connection for this token" }, { status: 404 });
  }
  // Subscribing is reading: an entity the token cannot read is not found, exactly as a GET would say.
  if (!(await readVisible(context, caller, entity, id))) return noSuch(entity.classname);
  const channel = channelOf(entity.classname, id);
  const done = await hubFor(context).subscribe(conn, channel, entity.classname, id, { userId: caller.userId, appId: caller.appId });
  if (!done) return json({ error: "not_found", message: "No such connection for this token" }, { status: 404 });
  return json({ channel });
}
