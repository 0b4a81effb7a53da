/**
 * Self-service cancellation under the form's policy (issue 24): until the deadline (else until the form
 * closes), a registrant may cancel a person; the refund is the policy's percent of what that person came to,
 * less the cancellation fee, never below zero and never more than was received for the cart and not yet
 * refunded. Money is integer cents; the percent is rounded half away from zero like every percent here.
 */
import { percentOf, type Cents } from "../money/money";

export interface CancelPolicy {
  /** Null: registrants cannot cancel themselves. */
  refundPercent: number | null;
  fee: Cents;
  /** Epoch ms; null: until the form closes. */
  deadline: number | null;
  /** The form's close time, the deadline when none is set. */
  closeTime: number | null;
}

export const CANCEL_MESSAGES = {
  notAllowed: "This registration cannot be cancelled online. Please contact the organiser.",
  closed: "Cancellations for this registration are closed. Please contact the organiser.",
  alreadyCancelled: "This person's registration is already cancelled.",
  notPaid: "Only a completed registration can be cancelled.",
} as const;

export type CancelQuote = { ok: true; refund: Cents } | { ok: false; error: string };

export function cancelQuote(policy: CancelPolicy, share: Cents, refundable: Cents, now: number): CancelQuote {
  if (policy.refundPercent === null) return { ok: false, error: CANCEL_MESSAGES.notAllowed };
  const deadline = policy.deadline ?? policy.closeTime;
  if (deadline !== null && now > deadline) return { ok: false, error: CANCEL_MESSAGES.closed };
  const percent = Math.min(100, Math.max(0, policy.refundPercent));
  const gross = percentOf(Math.max(0, share), percent);
  return { ok: true, refund: Math.max(0, Math.min(gross - Math.max(0, policy.fee), Math.max(0, refundable))) };
}
