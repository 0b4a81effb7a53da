/** The Worker's side of the DataHub: forwarding sockets, subscribing them and publishing saves. */
import { ownerOf, type ProtectedObject } from "../../core/access/policy";
import { tokenItemKind } from "../../core/access/reach";
import { scopeForArea } from "../../core/access/scopes";
import type { EntityClass } from "../../schema/entities/registry";
import { channelOf } from "../../schema/wire/data-socket";
import type { RequestContext } from "../request-context";

/** One hub per tenant host: tokens are bound to the host they were issued on, so their sockets are too. */
export function hubFor(context: Pick<RequestContext, "env" | "tenant">) {
  return context.env.DATA_HUB.get(context.env.DATA_HUB.idFromName(context.tenant.hostname));
}

/** `GET /data-api/socket?instance=`: hands the upgrade to the tenant's hub. */
export function forwardSocket(request: Request, context: RequestContext): Promise<Response> | Response {
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
    return new Response(JSON.stringify({ error: "invalid_request", message: "Expected a WebSocket upgrade" }), {
      status: 426,
      headers: { "Content-Type": "application/json" },
    });
  }
  const instance = (new URL(request.url).searchParams.get("instance") ?? "").slice(0, 100);
  const target = new URL("https://hub/socket");
  target.searchParams.set("instance", instance);
  target.searchParams.set("host", context.tenant.hostname);
  return hubFor(context).fetch(new Request(target, request));
}

/**
 * Sends a save to the entity's subscribers after the response, so a save is never slowed or failed by
 * delivery. The hub re-checks each socket's token scope for the entity.
 */
/** What publishing needs of a request: a Worker handler's context or a Remix load context. */
export type PublishContext = Pick<RequestContext, "env" | "tenant" | "ctx" | "now">;

export function publishChange(
  context: PublishContext,
  entity: EntityClass,
  uuid: string,
  change: { fields: Record<string, unknown>; field_mtimes: Record<string, number>; deleted?: boolean },
  object: ProtectedObject,
): void {
  const message = { type: "data" as const, channel: channelOf(entity.classname, uuid), classname: entity.classname, uuid, ...change };
  const itemId = ownerOf(object, tokenItemKind(entity.area)) ?? undefined;
  context.ctx.waitUntil(
    hubFor(context)
      .publish(message, scopeForArea(entity.area), itemId)
      .then(
        () => undefined,
        (error: unknown) => console.error("publish failed", error),
      ),
  );
}

/** Publishes the fields a write changed with their new times; a write that changed nothing sends nothing. */
export function publishFieldChanges(
  context: PublishContext,
  entity: EntityClass,
  uuid: string,
  changed: Record<string, unknown>,
  mtimes: Record<string, number>,
  object: ProtectedObject,
): void {
  const names = Object.keys(changed);
  if (names.length === 0) return;
  publishChange(context, entity, uuid, { fields: changed, field_mtimes: Object.fromEntries(names.map((f) => [f, mtimes[f] ?? context.now])) }, object);
}
