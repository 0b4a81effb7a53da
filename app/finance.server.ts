/**
 * Server code of the finance pages (a form's payments, a club's transactions): the page's data and what a
 * finance user does to a transaction (record a cash or cheque payment received, refund, void, send the
 * receipt again, with or without a new link), each parsed with zod and checked against the page's scope
 * before anything is written.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import * as z from "zod";
import { parseMoney } from "../core/money/money";
import type { Db } from "../schema/d1";
import { stripeGateway } from "../workers/payments/stripe";
import { financeFilterOf, financeRowById, listTransactions, type FinanceRow, type FinanceScope } from "../workers/services/finance";
import { claimRefundNotice, recordReceived, refundPayment, transactionById, voidTransaction } from "../workers/services/payment-ledger";
import { sendReceiptOfCart } from "../workers/services/receipts";
import { recordReceiptResend } from "../workers/services/receipt-links";
import { parseForm, refuse, unknownIntent, type PostedForm } from "./forms/posted-form.server";

const NOTICES = {
  recorded: "Payment recorded as received. A confirmation was emailed.",
  refunded: "Refund made. The registrant was emailed.",
  voided: "Transaction voided.",
  resent: "The receipt was emailed again.",
  relinked: "A new receipt link was emailed; the links sent before no longer open the receipt.",
} as const;
export type FinanceNotice = keyof typeof NOTICES;

export function financeNoticeOf(request: Request): string | null {
  const key = new URL(request.url).searchParams.get("saved");
  return key && key in NOTICES ? NOTICES[key as FinanceNotice] : null;
}

/** The page's data: the filtered page of transactions, and the row a confirm step is about (?refund=, ?void=, ?record=). */
export async function financePageData(db: Db, request: Request, scope: FinanceScope) {
  const url = new URL(request.url);
  const filter = financeFilterOf(url);
  const page = await listTransactions(db, scope, filter);
  const asked = (["refund", "void", "record", "resend"] as const).find((key) => url.searchParams.get(key));
  const askedRow = asked ? await financeRowById(db, scope, url.searchParams.get(asked)!) : null;
  return {
    filter,
    page,
    confirm: asked && askedRow ? { kind: asked, row: askedRow, requestId: crypto.randomUUID() } : null,
  };
}

export type FinancePageData = Awaited<ReturnType<typeof financePageData>>;

const moneyField = z
  .string()
  .default("")
  .transform((text, ctx) => {
    const cents = parseMoney(text);
    if (cents === null || cents <= 0) {
      ctx.addIssue({ code: "custom", message: "Enter an amount such as 12.50" });
      return z.NEVER;
    }
    return cents;
  });

const recordSchema = z.object({
  target: z.string().min(1),
  method: z.enum(["cash", "cheque"], { message: "Choose cash or cheque" }),
  note: z.string().max(500).default(""),
});
const refundSchema = z.object({ target: z.string().min(1), amount: moneyField, request_id: z.uuid(), note: z.string().max(500).default("") });
const voidSchema = z.object({ target: z.string().min(1) });
const resendSchema = z.object({ target: z.string().min(1), request_id: z.uuid() });

/** The page address without the confirm step, with a notice. */
function backTo(request: Request, notice: FinanceNotice): string {
  const url = new URL(request.url);
  for (const key of ["refund", "void", "record", "resend", "saved", "index"]) url.searchParams.delete(key);
  url.searchParams.set("saved", notice);
  return `${url.pathname}?${url.searchParams.toString()}`;
}

/** `posted` is read by the caller, which may handle intents of its own first. */
export async function financeAction(request: Request, context: AppLoadContext, db: Db, scope: FinanceScope, userId: string, posted: PostedForm) {
  const row = posted.target ? await financeRowById(db, scope, posted.target) : null;
  if (!row) return refuse(posted, { form: "That transaction does not exist." }, 404);
  const stored = (await transactionById(db, scope.clubIds, row.id))!;
  const gateway = stripeGateway(context.env);
  const mail = (cartId: string | null, kind: "received" | "refunded" | "paid" | "registered") => {
    if (cartId) context.ctx.waitUntil(sendReceiptOfCart(context.env, db, cartId, kind).catch((error: unknown) => console.error("Receipt failed", error)));
  };
  if (posted.intent === "record") {
    const parsed = parseForm(recordSchema, posted);
    if (!parsed.ok) return parsed.reply;
    const done = await recordReceived(db, stored, parsed.value.method, parsed.value.note, userId, context.now);
    if (!done.ok) return refuse(posted, { form: done.error }, 409);
    if (done.created) mail(row.cartId, "received");
    return redirect(backTo(request, "recorded"));
  }
  if (posted.intent === "refund") {
    const parsed = parseForm(refundSchema, posted);
    if (!parsed.ok) return parsed.reply;
    const done = await refundPayment(db, gateway, stored, parsed.value.amount, parsed.value.request_id, parsed.value.note, userId, context.now);
    if (!done.ok) return refuse(posted, { amount: done.error }, 409);
    // A resent refund (double click, back and post again) finds the first: the registrant is told once.
    if (await claimRefundNotice(db, done.refundId, context.now)) mail(row.cartId, "refunded");
    return redirect(backTo(request, "refunded"));
  }
  if (posted.intent === "resend" || posted.intent === "relink") {
    const parsed = parseForm(resendSchema, posted);
    if (!parsed.ok) return parsed.reply;
    if (!row.cartId) return refuse(posted, { form: "This transaction has no registration to send a receipt for." }, 409);
    const relink = posted.intent === "relink";
    // Once per confirm step shown (a double click sends once), and in the form's audit trail.
    if (await recordReceiptResend(db, row.cartId, parsed.value.request_id, relink, userId, context.now))
      mail(row.cartId, row.completionTime === null ? "registered" : "paid");
    return redirect(backTo(request, relink ? "relinked" : "resent"));
  }
  if (posted.intent === "void") {
    const parsed = parseForm(voidSchema, posted);
    if (!parsed.ok) return parsed.reply;
    const done = await voidTransaction(db, gateway, stored, userId, context.now);
    if (!done.ok) return refuse(posted, { form: done.error }, 409);
    return redirect(backTo(request, "voided"));
  }
  return unknownIntent(posted);
}

export type { FinanceRow };
