/**
 * A registrant's change after checkout that is made at once (decision 0061): one that lowers the price
 * (refunded under the form's cancellation policy) or moves a place (another choice at the same price). Claimed
 * first, in one batch that moves the person's values only from what the change was made from, moves their
 * places (a capped one through the places trigger, so the last place is never sold twice), reprices the cart and
 * writes the audit row under the page's request id; only then is the money asked back, keyed by the same id.
 * A refund the provider refuses takes the claim back, as a cancellation's does.
 */
import { eq, sql, type SQL } from "drizzle-orm";
import type { Lang } from "../../core/forms/bilingual";
import { CHANGE_MESSAGES } from "../../core/registration/person-changes";
import { changeRefund, type ChangeRefund } from "../../core/registration/priced-changes";
import { cartChanges, rawBatch, type Db, type PaidChange } from "../../schema/d1";
import type { StripeGateway } from "../payments/stripe";
import { cancelPolicyOf, refundablePayment } from "./cancellations";
import type { CartRow } from "./carts";
import { refundPayment, transactionsOfCart } from "./payment-ledger";
import { isPlaceTaken, placeProblems } from "./places";
import type { RegistrationRow } from "./registration-forms";
import type { FormElement } from "../../core/forms/model";

/** What lowering a paid cart's price by `decrease` gives back now; nothing received yet (a cheque to come) gives nothing back and keeps nothing. */
export async function loweredChangeRefund(
  db: Db,
  registration: RegistrationRow,
  cart: CartRow,
  decrease: number,
  now: number,
  lang: Lang,
): Promise<ChangeRefund> {
  const { payment, refundable } = refundablePayment(await transactionsOfCart(db, cart.id));
  if (!payment) return { ok: true, refund: 0, kept: 0 };
  return changeRefund(cancelPolicyOf(registration), decrease, refundable, now, lang);
}

export type NowResult = { ok: true; created: boolean; refundId: string | null } | { ok: false; error: string; status: 409 | 502 };

/** The statements that move a person's places with a change, each guarded so it runs only while `guard` holds. */
export function placeMoves(cart: Pick<CartRow, "id" | "registrationId">, change: PaidChange, now: number, guard: SQL): SQL[] {
  return [
    sql`DELETE FROM places WHERE registration_id = ${cart.registrationId} AND individual_id = ${change.individualId}
        AND pool IN (SELECT value FROM json_each(${JSON.stringify(change.released ?? [])})) AND ${guard}`,
    // A hold this change made while its page was open becomes the place taken (the trigger checks the cap).
    ...(change.places ?? []).flatMap((claim) => [
      sql`DELETE FROM places WHERE registration_id = ${cart.registrationId} AND pool = ${claim.pool} AND unit = ${claim.unit} AND state = 'held' AND ${guard}`,
      sql`INSERT INTO places (id, registration_id, pool, unit, cart_id, individual_id, state, expires_at, cap, created_at)
          SELECT ${crypto.randomUUID()}, ${cart.registrationId}, ${claim.pool}, ${claim.unit}, ${cart.id}, ${change.individualId}, 'taken', NULL, ${claim.cap}, ${now}
          WHERE ${guard} ON CONFLICT DO NOTHING`,
    ]),
  ];
}

export async function applyChangeNow(
  db: Db,
  gateway: StripeGateway | null,
  elements: readonly FormElement[],
  cart: CartRow,
  change: PaidChange,
  quote: { refund: number; kept: number; delta: number },
  lang: Lang,
  now: number,
): Promise<NowResult> {
  const replay = await replayOf(db, change.requestId);
  if (replay) return replay;
  const toJson = JSON.stringify(change.to);
  const fromJson = JSON.stringify(change.from);
  const notYetApplied = sql`NOT EXISTS (SELECT 1 FROM cart_changes WHERE id = ${change.requestId})`;
  const holdsNew = sql`EXISTS (SELECT 1 FROM individuals WHERE id = ${change.individualId} AND "values" = ${toJson} AND is_removed = 0)`;
  const guard = sql`${notYetApplied} AND ${holdsNew}`;
  const detail = JSON.stringify({ from: change.fromName, to: change.toName, fields: change.fields, refund: quote.refund, kept: quote.kept });
  const claim = [
    sql`UPDATE individuals SET "values" = ${toJson}, price_total = COALESCE(price_total, 0) + ${change.personDelta ?? 0}
        WHERE id = ${change.individualId} AND "values" = ${fromJson} AND is_removed = 0 AND ${notYetApplied}`,
    ...(quote.delta !== 0 && change.pricing
      ? [
          sql`UPDATE carts SET total = COALESCE(total, 0) + ${quote.delta}, pricing = ${JSON.stringify(change.pricing)}, updated_at = ${now}
              WHERE id = ${cart.id} AND ${guard}`,
        ]
      : []),
    ...placeMoves(cart, change, now, guard),
    sql`INSERT INTO cart_changes (id, cart_id, registration_id, individual_id, kind, amount, actor, detail, created_at)
        SELECT ${change.requestId}, ${cart.id}, ${cart.registrationId}, ${change.individualId}, 'edit', ${-quote.refund}, 'registrant', ${detail}, ${now}
        WHERE ${holdsNew} ON CONFLICT DO NOTHING`,
  ];
  let results;
  try {
    results = await rawBatch(db, claim);
  } catch (error) {
    if (!isPlaceTaken(error)) throw error;
    // The last place went to someone else a moment ago: nothing was written.
    const full = await placeProblems(db, cart.registrationId, cart.id, change.places ?? [], elements, now, lang);
    return { ok: false, error: Object.values(full).join(" ") || "Sold out", status: 409 };
  }
  if ((results[0]?.meta.changes ?? 0) === 0) return (await replayOf(db, change.requestId)) ?? { ok: false, error: CHANGE_MESSAGES[lang].stale, status: 409 };
  if (quote.refund <= 0) return { ok: true, created: true, refundId: null };
  const { payment } = refundablePayment(await transactionsOfCart(db, cart.id));
  const refunded = payment
    ? await refundPayment(db, gateway, payment, quote.refund, change.requestId, "Changed by the registrant", "registrant", now)
    : ({ ok: false, error: "No payment to refund." } as const);
  if (refunded.ok) return { ok: true, created: true, refundId: refunded.refundId };
  // The money could not go back: the change is taken back, and the registrant may try again.
  await rawBatch(db, [
    sql`UPDATE individuals SET "values" = ${fromJson}, price_total = COALESCE(price_total, 0) - ${change.personDelta ?? 0} WHERE id = ${change.individualId} AND "values" = ${toJson}`,
    sql`UPDATE carts SET total = ${cart.total}, pricing = ${cart.pricing ? JSON.stringify(cart.pricing) : null} WHERE id = ${cart.id}`,
    sql`DELETE FROM places WHERE registration_id = ${cart.registrationId} AND individual_id = ${change.individualId}
        AND pool IN (SELECT value FROM json_each(${JSON.stringify((change.places ?? []).map((c) => c.pool))}))`,
    ...(change.released ?? []).map(
      (pool) =>
        sql`INSERT INTO places (id, registration_id, pool, unit, cart_id, individual_id, state, expires_at, cap, created_at)
            VALUES (${crypto.randomUUID()}, ${cart.registrationId}, ${pool}, ${change.individualId}, ${cart.id}, ${change.individualId}, 'taken', NULL, NULL, ${now})
            ON CONFLICT DO NOTHING`,
    ),
    sql`DELETE FROM cart_changes WHERE id = ${change.requestId}`,
  ]);
  return { ok: false, error: refunded.error, status: 502 };
}

async function replayOf(db: Db, requestId: string): Promise<NowResult | null> {
  const [done] = await db.select().from(cartChanges).where(eq(cartChanges.id, requestId)).limit(1);
  if (!done) return null;
  return { ok: true, created: false, refundId: done.amount < 0 ? `refund-${requestId}` : null };
}
