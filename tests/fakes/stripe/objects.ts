// The Stripe objects the fake keeps, trimmed to the fields a Checkout integration reads, with Stripe's names and id prefixes.

export type Metadata = Record<string, string>;

export interface Price {
  id: string;
  object: "price";
  active: boolean;
  created: number;
  currency: string;
  livemode: false;
  metadata: Metadata;
  product: string;
  type: "one_time";
  unit_amount: number;
  unit_amount_decimal: string;
}

export interface LineItem {
  id: string;
  object: "item";
  amount_discount: number;
  amount_subtotal: number;
  amount_tax: number;
  amount_total: number;
  currency: string;
  description: string;
  price: Price;
  quantity: number;
}

export interface CheckoutSession {
  id: string;
  object: "checkout.session";
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer: null;
  customer_details: { email: string | null; name: string | null } | null;
  customer_email: string | null;
  expires_at: number;
  livemode: false;
  locale: string | null;
  metadata: Metadata;
  mode: "payment";
  payment_intent: string | null;
  payment_method_types: string[];
  payment_status: "unpaid" | "paid";
  status: "open" | "complete" | "expired";
  success_url: string;
  total_details: { amount_discount: number; amount_shipping: number; amount_tax: number };
  ui_mode: "hosted";
  url: string | null;
}

export interface LastPaymentError {
  type: "card_error";
  code: string;
  decline_code: string;
  message: string;
  charge: string;
  doc_url: string;
}

export interface PaymentIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_capturable: number;
  amount_received: number;
  application_fee_amount: number | null;
  canceled_at: number | null;
  cancellation_reason: string | null;
  capture_method: "automatic_async";
  client_secret: string;
  confirmation_method: "automatic";
  created: number;
  currency: string;
  customer: null;
  description: string | null;
  last_payment_error: LastPaymentError | null;
  latest_charge: string | null;
  livemode: false;
  metadata: Metadata;
  payment_method: string | null;
  payment_method_types: string[];
  receipt_email: string | null;
  status: "requires_payment_method" | "succeeded" | "canceled";
}

export interface Charge {
  id: string;
  object: "charge";
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  application_fee_amount: number | null;
  captured: boolean;
  created: number;
  currency: string;
  description: string | null;
  failure_code: string | null;
  failure_message: string | null;
  livemode: false;
  metadata: Metadata;
  outcome: { network_status: string; reason: string | null; seller_message: string; type: string };
  paid: boolean;
  payment_intent: string;
  payment_method: string;
  payment_method_details: { type: "card"; card: { brand: string; last4: string } };
  receipt_email: string | null;
  refunded: boolean;
  status: "succeeded" | "failed";
}

export interface Refund {
  id: string;
  object: "refund";
  amount: number;
  balance_transaction: null;
  charge: string;
  created: number;
  currency: string;
  metadata: Metadata;
  payment_intent: string;
  reason: "duplicate" | "fraudulent" | "requested_by_customer" | null;
  status: "succeeded";
}

export interface StripeEvent {
  id: string;
  object: "event";
  /** Present only when the object lives on a connected account. */
  account?: string;
  api_version: string;
  created: number;
  data: { object: unknown };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

/** An id with Stripe's prefix; random hex keeps them unique without anything beyond Web Crypto. */
export function newId(prefix: string, length = 24): string {
  let random = "";
  while (random.length < length) random += crypto.randomUUID().replaceAll("-", "");
  return `${prefix}${random.slice(0, length)}`;
}

/** "$12.50" from 1250 minor units, as Stripe writes amounts in its messages (two-decimal currencies only). */
export function formatDollars(amount: number): string {
  const [whole = "0", cents = "00"] = (Math.abs(amount) / 100).toFixed(2).split(".");
  return `${amount < 0 ? "-" : ""}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${cents}`;
}

/** A deep copy, so an event keeps the object as it was when the event happened. */
export function snapshot<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Which fields `expand[]` may turn from an id into the object, per object type. */
export const EXPANDABLE: Record<string, readonly string[]> = {
  "checkout.session": ["payment_intent", "line_items"],
  payment_intent: ["latest_charge"],
  charge: ["payment_intent"],
  refund: ["charge", "payment_intent"],
};
