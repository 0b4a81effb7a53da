// What an API handler of the fake gets and gives back; fake.ts routes requests to handlers, connect.ts adds some.
import type { Params } from "./params";
import type { RecordedEvent } from "./webhooks";

export interface ApiContext {
  requestId: string;
  /** The Stripe-Account header: the connected account the request acts on, or null for the platform. */
  account: string | null;
  idempotencyKey: string | null;
}

export interface ApiResult {
  status?: number;
  body: unknown;
  /** Webhook events the request caused, posted before it answers. */
  events: RecordedEvent[];
}

export type Handler = (context: ApiContext, params: Params, id: string) => ApiResult | Promise<ApiResult>;

export interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}
