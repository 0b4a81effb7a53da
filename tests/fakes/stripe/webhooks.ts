// Webhook events: recorded in order, signed by the real SDK, posted to the app, and held back or reordered on request.
import Stripe from "stripe";
import { newId, snapshot, type StripeEvent } from "./objects";

/** One attempt to post an event; `status` is null when `deliver` threw. */
export interface Delivery {
  at: number;
  signature: string;
  /** A test's `resend`, not the first delivery. */
  replay: boolean;
  status: number | null;
  body: string;
  error: string | null;
}

export interface RecordedEvent {
  readonly id: string;
  readonly type: string;
  readonly account: string | null;
  readonly event: StripeEvent;
  /** The exact body posted; Stripe pretty-prints it, so a receiver that re-serialises the JSON fails verification as it would live. */
  readonly payload: string;
  readonly deliveries: Delivery[];
}

export interface EventSource {
  type: string;
  object: unknown;
  account: string | null;
  apiVersion: string;
  /** The API request that caused it; null for the customer's own actions on the hosted page and for expiry. */
  request: { id: string; idempotencyKey: string | null } | null;
}

export interface DispatcherOptions {
  webhookSecret: string;
  webhookUrl: string;
  deliver: (request: Request) => Promise<Response>;
  now: () => number;
}

let signer: Stripe | undefined;

/** The SDK's async signer: the sync one needs Node's crypto and throws inside workerd. */
async function sign(payload: string, secret: string, timestamp?: number): Promise<string> {
  signer ??= new Stripe("sk_test_fake");
  return signer.webhooks.generateTestHeaderStringAsync({ payload, secret, timestamp });
}

export class WebhookDispatcher {
  readonly events: RecordedEvent[] = [];
  private readonly queue: RecordedEvent[] = [];
  private paused = false;

  constructor(private readonly options: DispatcherOptions) {}

  get isPaused(): boolean {
    return this.paused;
  }

  get queued(): readonly RecordedEvent[] {
    return this.queue;
  }

  /** Records an event now, with a snapshot of its object; it is posted by `dispatch`. */
  record(source: EventSource): RecordedEvent {
    const event: StripeEvent = {
      id: newId("evt_"),
      object: "event",
      ...(source.account ? { account: source.account } : {}),
      api_version: source.apiVersion,
      created: Math.floor(this.options.now() / 1000),
      data: { object: snapshot(source.object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: source.request?.id ?? null, idempotency_key: source.request?.idempotencyKey ?? null },
      type: source.type,
    };
    const recorded: RecordedEvent = {
      id: event.id,
      type: event.type,
      account: source.account,
      event,
      payload: JSON.stringify(event, null, 2),
      deliveries: [],
    };
    this.events.push(recorded);
    return recorded;
  }

  /** Posts events one after another (so their order holds), or queues them while paused. */
  async dispatch(events: readonly RecordedEvent[]): Promise<void> {
    for (const event of events) {
      if (this.paused) this.queue.push(event);
      else await this.post(event, false);
    }
  }

  pause(): void {
    this.paused = true;
  }

  /** Stops holding events back and posts whatever is still queued, oldest first. */
  async resume(): Promise<Delivery[]> {
    this.paused = false;
    return this.deliverQueued("fifo");
  }

  /** Posts the held-back events in the order asked for, so a test can make them arrive out of order. */
  async deliverQueued(order: "reverse" | "fifo" = "fifo"): Promise<Delivery[]> {
    const batch = this.queue.splice(0, this.queue.length);
    if (order === "reverse") batch.reverse();
    const deliveries: Delivery[] = [];
    for (const event of batch) deliveries.push(await this.post(event, false));
    return deliveries;
  }

  /** Posts an event's identical payload again with a fresh signature (or one dated `signedAt`, unix seconds), as a replay would. */
  async resend(eventId: string, options: { signedAt?: number } = {}): Promise<Delivery> {
    const event = this.events.find((candidate) => candidate.id === eventId);
    if (!event) throw new Error(`Stripe fake: no event ${eventId}`);
    return this.post(event, true, options.signedAt);
  }

  private async post(event: RecordedEvent, replay: boolean, signedAt?: number): Promise<Delivery> {
    const signature = await sign(event.payload, this.options.webhookSecret, signedAt);
    const request = new Request(this.options.webhookUrl, {
      method: "POST",
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
        "Stripe-Signature": signature,
      },
      body: event.payload,
    });
    const delivery: Delivery = { at: this.options.now(), signature, replay, status: null, body: "", error: null };
    try {
      const response = await this.options.deliver(request);
      delivery.status = response.status;
      delivery.body = await response.text();
    } catch (error) {
      // Stripe would retry later; the test sees the failure in `deliveries` and can `resend`.
      delivery.error = error instanceof Error ? error.message : String(error);
    }
    event.deliveries.push(delivery);
    return delivery;
  }
}
