/**
 * POST /_payments/stripe/webhook: Stripe's events, signature checked with constructEventAsync, each applied
 * once. A replay finds its event id already stored; an event arriving late (an expiry after the payment,
 * a failure after a success) finds the attempt paid and changes nothing, because paid is final.
 * account.updated (a connected account's onboarding, decision 0041) sets the club's card flags.
 */
import { uniqueConstraintOf } from "../../schema/d1/errors";
import { and, eq, inArray } from "drizzle-orm";
import * as z from "zod";
import { paymentAttempts, paymentEvents, type Db } from "../../schema/d1";
import type { RequestContext } from "../request-context";
import { readLimitedText, STRIPE_WEBHOOK_MAX_BYTES } from "../request-limits";
import { attemptOfSession, expiryStatements } from "../services/payments";
import { claimRefundNotice, recordProviderRefund } from "../services/payment-ledger";
import { releaseUnlessPaying } from "../services/places";
import { sendReceiptOfCart } from "../services/receipts";
import { offerFreedPlaces } from "../services/waitlists";
import { applyAccountUpdated } from "../services/stripe-connect";
import { settlePaidSession } from "./settle";
import { stripeGateway, type StripeGateway } from "./stripe";
import { accountStatusOf } from "./stripe-connect";

export const WEBHOOK_PATH = "/_payments/stripe/webhook";

const checkoutSessionSchema = z.object({ id: z.string(), payment_status: z.string(), payment_intent: z.string().nullable().optional() });
const paymentIntentSchema = z.object({
  id: z.string(),
  metadata: z.record(z.string(), z.string()).default({}),
  last_payment_error: z.object({ message: z.string().optional() }).nullable().optional(),
});
const refundSchema = z.object({
  id: z.string(),
  amount: z.number().int().positive(),
  payment_intent: z.string(),
  metadata: z.record(z.string(), z.string()).default({}),
  status: z.string().nullable().optional(),
});
const chargeSchema = z.object({ payment_intent: z.string(), refunds: z.object({ data: z.array(refundSchema) }).optional() });
const accountSchema = z.object({
  id: z.string().regex(/^acct_\w+$/),
  charges_enabled: z.boolean().nullable().optional(),
  payouts_enabled: z.boolean().nullable().optional(),
  details_submitted: z.boolean().nullable().optional(),
  requirements: z
    .object({ currently_due: z.array(z.string()).nullable().optional(), past_due: z.array(z.string()).nullable().optional() })
    .nullable()
    .optional(),
});

function text(status: number, body: string): Response {
  return new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

async function alreadyApplied(db: Db, eventId: string): Promise<boolean> {
  const [row] = await db.select({ id: paymentEvents.id }).from(paymentEvents).where(eq(paymentEvents.id, eventId)).limit(1);
  return row !== undefined;
}

async function remember(db: Db, eventId: string, type: string, now: number): Promise<void> {
  await db.insert(paymentEvents).values({ id: eventId, type, receivedAt: now }).onConflictDoNothing();
}

/**
 * A refund made on Stripe's side (no request id of ours) is known only from here, so the registrant hears of it
 * from here; a refund we asked for is told by the page that asked. Either way the telling is claimed once.
 */
function mailRefund(context: RequestContext, written: { cartId: string | null; refundId: string } | null, requestId: string | null): void {
  if (!written?.cartId || requestId !== null) return;
  const { cartId, refundId } = written;
  context.ctx.waitUntil(
    (async () => {
      if (await claimRefundNotice(context.db, refundId, context.now)) await sendReceiptOfCart(context.env, context.db, cartId, "refunded");
    })().catch((error: unknown) => console.error("Refund mail failed", error)),
  );
}

export async function handleStripeWebhook(request: Request, context: RequestContext): Promise<Response> {
  if (request.method !== "POST") return text(405, "Method not allowed");
  const gateway = stripeGateway(context.env);
  if (!gateway || !(context.env.STRIPE_WEBHOOK_SECRET || context.env.STRIPE_CONNECT_WEBHOOK_SECRET)) return text(404, "Card payments are not configured");
  const signature = request.headers.get("Stripe-Signature");
  if (!signature) return text(400, "Missing signature");
  // The signature covers the raw bytes, so the body stays text; only its size is bounded before reading.
  const payload = await readLimitedText(request, STRIPE_WEBHOOK_MAX_BYTES);
  if (!payload.ok) return text(payload.status, payload.message);
  let event;
  try {
    event = await gateway.verifyWebhook(payload.value, signature);
  } catch {
    return text(400, "Invalid signature");
  }
  if (await alreadyApplied(context.db, event.id)) return text(200, "Already applied");
  try {
    return await applyEvent(event, context, gateway);
  } catch (error) {
    // A signed event whose object is not the shape we read: a 400, not a 500 (nothing was written).
    if (error instanceof z.ZodError) return text(400, "Malformed event");
    throw error;
  }
}

type VerifiedEvent = Awaited<ReturnType<StripeGateway["verifyWebhook"]>>;

/** One verified event applied: its object read with zod, then what it means for attempts, carts, refunds, clubs. */
async function applyEvent(event: VerifiedEvent, context: RequestContext, gateway: StripeGateway): Promise<Response> {
  const { db, now } = context;
  const object: unknown = event.data.object;
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const session = checkoutSessionSchema.parse(object);
      const attempt = await attemptOfSession(db, session.id);
      if (!attempt || session.payment_status !== "paid" || !session.payment_intent) break;
      if (attempt.status === "paid") break;
      let settled;
      try {
        settled = await settlePaidSession(
          { env: context.env, db, now, waitUntil: (p) => context.ctx.waitUntil(p) },
          gateway,
          attempt,
          session.payment_intent,
          event,
        );
      } catch (error) {
        // The same event delivered twice at once: the second batch hits the stored event id and rolls back whole.
        if (uniqueConstraintOf(error) !== null && (await alreadyApplied(db, event.id))) return text(200, "Already applied");
        throw error;
      }
      // A refunded, unplaced payment wrote no event row in its batch; remember the event so a replay does nothing.
      if (settled === "unplaced") await remember(db, event.id, event.type, now);
      return text(200, "Applied");
    }
    case "checkout.session.expired": {
      const session = checkoutSessionSchema.parse(object);
      const attempt = await attemptOfSession(db, session.id);
      if (!attempt) break;
      // Abandoned: the cart stays payable; a paid attempt is never undone by a late expiry.
      await db.batch([
        ...expiryStatements(db, attempt.id, now),
        db.insert(paymentEvents).values({ id: event.id, type: event.type, receivedAt: now }).onConflictDoNothing(),
        // Its places are free again, unless the cart is being paid on another page (a waitlist offer's stays held).
        ...releaseUnlessPaying(db, attempt.cartId, attempt.id, now),
      ]);
      // A place it held may be what someone on the waitlist is waiting for.
      context.ctx.waitUntil(offerFreedPlaces(context.env, db, attempt.registrationId, now).catch((e: unknown) => console.error("Waitlist sweep failed", e)));
      return text(200, "Applied");
    }
    case "payment_intent.payment_failed": {
      const intent = paymentIntentSchema.parse(object);
      const attemptId = intent.metadata.attempt_id;
      if (attemptId) {
        // A declined card: the session stays open for another card, so the attempt only records why.
        await db
          .update(paymentAttempts)
          .set({ status: "failed", failureMessage: intent.last_payment_error?.message ?? "The payment failed.", updatedAt: now })
          .where(and(eq(paymentAttempts.id, attemptId), inArray(paymentAttempts.status, ["open", "failed"])));
      }
      break;
    }
    case "account.updated": {
      const account = accountSchema.safeParse(object);
      if (!account.success) return text(400, "Malformed account");
      // A Connect event names the account it happened on; an object of another account is not believed.
      const applied =
        event.account && event.account !== account.data.id
          ? "unknown"
          : await applyAccountUpdated(db, accountStatusOf(account.data), { id: event.id, type: event.type, createdMs: event.created * 1000 }, now);
      if (applied === "already") return text(200, "Already applied");
      if (applied === "applied") return text(200, "Applied");
      // An account no club has (a deleted club, another platform's) is acknowledged, so Stripe stops sending it.
      await remember(db, event.id, event.type, now);
      return text(200, "Ignored: no club has this account");
    }
    case "refund.created":
    case "refund.updated": {
      const refund = refundSchema.parse(object);
      if (refund.status === "succeeded" || refund.status === "pending") {
        const written = await recordProviderRefund(
          db,
          { id: refund.id, amount: refund.amount, paymentIntentId: refund.payment_intent, requestId: refund.metadata.request_id ?? null },
          now,
        );
        mailRefund(context, written, refund.metadata.request_id ?? null);
      }
      break;
    }
    case "charge.refunded": {
      const charge = chargeSchema.parse(object);
      for (const refund of charge.refunds?.data ?? []) {
        const written = await recordProviderRefund(
          db,
          { id: refund.id, amount: refund.amount, paymentIntentId: charge.payment_intent, requestId: refund.metadata.request_id ?? null },
          now,
        );
        mailRefund(context, written, refund.metadata.request_id ?? null);
      }
      break;
    }
    default:
      // Events we do not act on are acknowledged, so Stripe stops retrying them.
      break;
  }
  await remember(db, event.id, event.type, now);
  return text(200, "Applied");
}
