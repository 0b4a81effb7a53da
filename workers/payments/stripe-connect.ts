/**
 * The Stripe Connect half of the adapter: a club's Express account, the links that open Stripe's hosted
 * onboarding, and the account's state as the platform needs it (decision 0041). stripe.ts puts these calls
 * on the gateway; this module takes the SDK client and the error translation from it, so neither imports the other.
 */
import type Stripe from "stripe";

export interface ConnectAccountRequest {
  clubId: string;
  /** The club's e-mail, prefilled on Stripe's form; Stripe asks for one when it is missing. */
  email: string | null;
  /** Two-letter country of the account (CA for the platform's clubs). */
  country: string;
  idempotencyKey: string;
}

export interface AccountLinkRequest {
  account: string;
  /** Where Stripe sends the club when the link has expired or was already used: a new link is made there. */
  refreshUrl: string;
  /** Where Stripe sends the club when it leaves or finishes onboarding. */
  returnUrl: string;
}

export interface ConnectAccountStatus {
  id: string;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
  /** What Stripe needs now: requirements.currently_due and past_due, without repeats. */
  requirementsDue: string[];
}

export interface ConnectGateway {
  createAccount(request: ConnectAccountRequest): Promise<ConnectAccountStatus>;
  /** A single-use link to the account's hosted onboarding; it expires within minutes, so make one per visit. */
  createAccountLink(request: AccountLinkRequest): Promise<{ url: string; expiresAt: number }>;
  retrieveAccount(account: string): Promise<ConnectAccountStatus>;
}

type Translate = <T>(call: () => Promise<T>) => Promise<T>;

/** The fields of an account (from the API or an account.updated event) that decide whether a club takes cards. */
export function accountStatusOf(account: {
  id: string;
  charges_enabled?: boolean | null;
  payouts_enabled?: boolean | null;
  details_submitted?: boolean | null;
  requirements?: { currently_due?: string[] | null; past_due?: string[] | null } | null;
}): ConnectAccountStatus {
  const due = [...(account.requirements?.past_due ?? []), ...(account.requirements?.currently_due ?? [])];
  return {
    id: account.id,
    chargesEnabled: account.charges_enabled === true,
    payoutsEnabled: account.payouts_enabled === true,
    detailsSubmitted: account.details_submitted === true,
    requirementsDue: [...new Set(due)],
  };
}

export function connectCalls(stripe: Stripe, translated: Translate): ConnectGateway {
  return {
    createAccount: (request) =>
      translated(async () =>
        accountStatusOf(
          await stripe.accounts.create(
            {
              type: "express",
              country: request.country,
              ...(request.email ? { email: request.email } : {}),
              metadata: { club_id: request.clubId },
              capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
            },
            { idempotencyKey: request.idempotencyKey },
          ),
        ),
      ),
    createAccountLink: (request) =>
      translated(async () => {
        const link = await stripe.accountLinks.create({
          account: request.account,
          type: "account_onboarding",
          refresh_url: request.refreshUrl,
          return_url: request.returnUrl,
        });
        return { url: link.url, expiresAt: link.expires_at * 1000 };
      }),
    retrieveAccount: (account) => translated(async () => accountStatusOf(await stripe.accounts.retrieve(account))),
  };
}
