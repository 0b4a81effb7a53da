/**
 * A club's Stripe connected account (decision 0041): made once however many times onboarding is started,
 * a fresh onboarding link for every visit, and the account's flags stored on the club from Stripe (the
 * return page asks, account.updated tells). Cards are offered only once charges are enabled (payments.ts).
 */
import { uniqueConstraintOf } from "../../schema/d1/errors";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { ConnectState } from "../../core/payments/connect-status";
import { clubs, paymentEvents, type Db } from "../../schema/d1";
import { PaymentProviderError, type StripeGateway } from "../payments/stripe";
import type { ConnectAccountStatus } from "../payments/stripe-connect";

export const CONNECT_MESSAGES = {
  notConfigured: "Card payments are not configured on this server.",
  noSuchClub: "There is no such club.",
  merchant: "The platform collects this club's card payments, so the club needs no Stripe account of its own.",
  startFailed: "Stripe could not start the onboarding. Please try again in a moment.",
  notConnected: "This club has no Stripe account yet: start with Connect with Stripe on the club's admin page.",
} as const;

/** Clubs are Canadian (decision 0012); a club with no country set is too. */
const DEFAULT_COUNTRY = "CA";

export type ConnectClubState = ConnectState & { clubId: string; isStripe: boolean };

export async function connectStateOf(db: Db, clubId: string, configured: boolean): Promise<ConnectClubState | null> {
  const [club] = await db.select().from(clubs).where(eq(clubs.id, clubId)).limit(1);
  if (!club) return null;
  return {
    clubId: club.id,
    configured,
    isStripe: club.isStripe,
    isMerchant: club.isMerchant,
    accountId: club.stripeAccountId,
    chargesEnabled: club.stripeChargesEnabled,
    payoutsEnabled: club.stripePayoutsEnabled,
    detailsSubmitted: club.stripeDetailsSubmitted,
    requirementsDue: club.stripeRequirements ?? [],
  };
}

function flagsOf(status: ConnectAccountStatus, at: number) {
  return {
    stripeChargesEnabled: status.chargesEnabled,
    stripePayoutsEnabled: status.payoutsEnabled,
    stripeDetailsSubmitted: status.detailsSubmitted,
    stripeRequirements: status.requirementsDue,
    stripeStatusAt: at,
  };
}

/**
 * The club's account, made if it has none. The first caller claims the creation in the club's row (a
 * conditional update); every caller then asks Stripe with the claimed key, so two tabs or a double click
 * get the one account Stripe's idempotency returns, and the first to store its id wins.
 */
async function accountOfClub(db: Db, gateway: StripeGateway, club: typeof clubs.$inferSelect, now: number): Promise<string> {
  if (club.stripeAccountId) return club.stripeAccountId;
  const key = `connect-account-${club.id}-${now}`;
  await db
    .update(clubs)
    .set({ stripeAccountClaim: key })
    .where(and(eq(clubs.id, club.id), isNull(clubs.stripeAccountId), isNull(clubs.stripeAccountClaim)));
  const [claimed] = await db.select({ accountId: clubs.stripeAccountId, claim: clubs.stripeAccountClaim }).from(clubs).where(eq(clubs.id, club.id));
  if (claimed?.accountId) return claimed.accountId;
  const claim = claimed?.claim ?? key;
  let account;
  try {
    account = await gateway.createAccount({ clubId: club.id, email: club.email, country: club.country ?? DEFAULT_COUNTRY, idempotencyKey: claim });
  } catch (error) {
    // Stripe answered with a refusal (a coded error), so nothing was made: the next try may use a new key,
    // with corrected details. A lost connection, or the same key still in flight, keeps the claim: the account may exist under it.
    if (error instanceof PaymentProviderError && error.code !== null && error.code !== "idempotency_key_in_use") {
      await db
        .update(clubs)
        .set({ stripeAccountClaim: null })
        .where(and(eq(clubs.id, club.id), eq(clubs.stripeAccountClaim, claim), isNull(clubs.stripeAccountId)));
    }
    throw error;
  }
  await db
    .update(clubs)
    .set({ stripeAccountId: account.id, ...flagsOf(account, now) })
    .where(and(eq(clubs.id, club.id), isNull(clubs.stripeAccountId)));
  const [stored] = await db.select({ accountId: clubs.stripeAccountId }).from(clubs).where(eq(clubs.id, club.id));
  return stored?.accountId ?? account.id;
}

export type OnboardingStart = { ok: true; url: string } | { ok: false; error: string; status: 404 | 409 | 502 };

/**
 * Starts or continues the club's onboarding: its account (made once), then a new single-use link to Stripe's
 * pages. `create: false` (Stripe's refresh page, a GET) only continues: a club with no account gets a 404.
 */
export async function startOnboarding(
  db: Db,
  gateway: StripeGateway | null,
  clubId: string,
  urls: { refresh: string; return: string },
  now: number,
  options: { create: boolean } = { create: true },
): Promise<OnboardingStart> {
  if (!gateway) return { ok: false, error: CONNECT_MESSAGES.notConfigured, status: 404 };
  const [club] = await db.select().from(clubs).where(eq(clubs.id, clubId)).limit(1);
  if (!club) return { ok: false, error: CONNECT_MESSAGES.noSuchClub, status: 404 };
  if (club.isMerchant) return { ok: false, error: CONNECT_MESSAGES.merchant, status: 409 };
  if (!club.stripeAccountId && !options.create) return { ok: false, error: CONNECT_MESSAGES.notConnected, status: 404 };
  try {
    const account = await accountOfClub(db, gateway, club, now);
    // Links are single-use and expire within minutes: never stored, always made afresh.
    const link = await gateway.createAccountLink({ account, refreshUrl: urls.refresh, returnUrl: urls.return });
    return { ok: true, url: link.url };
  } catch (error) {
    if (error instanceof PaymentProviderError) return { ok: false, error: CONNECT_MESSAGES.startFailed, status: 502 };
    throw error;
  }
}

/** Asks Stripe for the club's account and stores its flags. */
export async function refreshStatus(db: Db, gateway: StripeGateway, clubId: string, now: number): Promise<"refreshed" | "no_account" | "unreachable"> {
  const [club] = await db.select({ accountId: clubs.stripeAccountId }).from(clubs).where(eq(clubs.id, clubId)).limit(1);
  if (!club?.accountId) return "no_account";
  let status;
  try {
    status = await gateway.retrieveAccount(club.accountId);
  } catch (error) {
    if (error instanceof PaymentProviderError) return "unreachable";
    throw error;
  }
  await db
    .update(clubs)
    .set(flagsOf(status, now))
    .where(and(eq(clubs.id, clubId), eq(clubs.stripeAccountId, status.id)));
  return "refreshed";
}

export type AccountUpdate = "applied" | "unknown" | "already";

/**
 * An account.updated event: the flags of the club with that account, written in one batch with the event id
 * (a replay or a concurrent duplicate changes nothing). Stripe may deliver events out of order, so an event
 * older than what the club last heard (by the second, Stripe's `created`) is recorded but not applied.
 */
export async function applyAccountUpdated(
  db: Db,
  status: ConnectAccountStatus,
  event: { id: string; type: string; createdMs: number },
  now: number,
): Promise<AccountUpdate> {
  const [club] = await db.select({ id: clubs.id }).from(clubs).where(eq(clubs.stripeAccountId, status.id)).limit(1);
  if (!club) return "unknown";
  try {
    await db.batch([
      db.insert(paymentEvents).values({ id: event.id, type: event.type, receivedAt: now }),
      db
        .update(clubs)
        .set(flagsOf(status, event.createdMs))
        .where(and(eq(clubs.stripeAccountId, status.id), or(isNull(clubs.stripeStatusAt), lt(clubs.stripeStatusAt, event.createdMs + 1000)))),
    ]);
  } catch (error) {
    if (uniqueConstraintOf(error) !== null) return "already";
    throw error;
  }
  return "applied";
}
