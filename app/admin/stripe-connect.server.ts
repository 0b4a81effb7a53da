/**
 * The club admin page's card payments section and the pages Stripe sends the club back to (decision 0041).
 * Thin: the rules are in workers/services/stripe-connect.ts and core/payments/connect-status.ts.
 */
import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { connectActionOf, connectStageOf, connectStatusWords } from "../../core/payments/connect-status";
import type { Db } from "../../schema/d1";
import { originOf } from "../../workers/auth/hosts";
import { stripeGateway } from "../../workers/payments/stripe";
import { connectStateOf, refreshStatus, startOnboarding } from "../../workers/services/stripe-connect";
import { pageUrl, refuse, type PostedForm } from "../forms/posted-form.server";

export interface CardPaymentsData {
  stage: ReturnType<typeof connectStageOf>;
  status: string;
  /** The button's words ("Connect with Stripe", "Continue onboarding"), or null for none. */
  action: string | null;
  /** The club is switched on for card payments (is_stripe), which only a System Administrator changes. */
  isStripe: boolean;
}

export async function cardPaymentsData(context: AppLoadContext, db: Db, clubId: string): Promise<CardPaymentsData> {
  const state = await connectStateOf(db, clubId, stripeGateway(context.env) !== null);
  if (!state) throw new Response("Not found", { status: 404 });
  return { stage: connectStageOf(state), status: connectStatusWords(state), action: connectActionOf(state), isStripe: state.isStripe };
}

/** Where Stripe sends the club's admin back, on the host they started from. */
function connectUrls(context: AppLoadContext, clubId: string) {
  const base = `${originOf(context.env, context.tenant.hostname)}/club/${clubId}/stripe`;
  return { refresh: `${base}/refresh`, return: `${base}/return` };
}

/** "Connect with Stripe" / "Continue onboarding": to Stripe's onboarding (303), or the page again with why not. */
export async function startOnboardingAction(context: AppLoadContext, db: Db, clubId: string, posted: PostedForm) {
  const started = await startOnboarding(db, stripeGateway(context.env), clubId, connectUrls(context, clubId), context.now);
  return started.ok ? redirect(started.url, 303) : refuse(posted, { form: started.error }, started.status);
}

/** Stripe's refresh_url: the link expired or was used, so a new one is made and followed (never a new account: this is a GET). */
export async function onboardingAgain(context: AppLoadContext, db: Db, clubId: string) {
  const started = await startOnboarding(db, stripeGateway(context.env), clubId, connectUrls(context, clubId), context.now, { create: false });
  if (started.ok) return redirect(started.url, 303);
  return redirect(started.status === 502 ? pageUrl(`/club/${clubId}/admin`, "stripeUnreachable") : `/club/${clubId}/admin`);
}

/** Stripe's return_url: the club left or finished onboarding; its status is read from Stripe before the page shows it. */
export async function returnedFromStripe(context: AppLoadContext, db: Db, clubId: string) {
  const gateway = stripeGateway(context.env);
  const refreshed = gateway ? await refreshStatus(db, gateway, clubId, context.now) : "no_account";
  if (refreshed === "no_account") return redirect(`/club/${clubId}/admin`);
  return redirect(pageUrl(`/club/${clubId}/admin`, refreshed === "refreshed" ? "stripeReturned" : "stripeUnreachable"));
}
