// Drives the fake's Connect calls through the real Stripe SDK: Express accounts, account links and the hosted onboarding.
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { createStripeFake } from "./fake";

const SECRET = "whsec_test_secret";
const RETURN_URL = "http://localhost:8787/club/c1/stripe/return";
const REFRESH_URL = "http://localhost:8787/club/c1/stripe/refresh";

function setup(options: { now?: () => number } = {}) {
  const received: Array<{ body: string; signature: string }> = [];
  const fake = createStripeFake({
    ...options,
    baseUrl: "http://127.0.0.1:12111",
    webhookSecret: SECRET,
    deliver: async (request) => {
      received.push({ body: await request.text(), signature: request.headers.get("Stripe-Signature") ?? "" });
      return new Response("ok");
    },
  });
  const stripe = new Stripe("sk_test_fake_key", {
    httpClient: Stripe.createFetchHttpClient(fake.fetch),
    host: "127.0.0.1",
    port: 12111,
    protocol: "http",
    maxNetworkRetries: 0,
  });
  return { fake, stripe, received };
}

const accountParams: Stripe.AccountCreateParams = {
  type: "express",
  country: "CA",
  email: "treasurer@example.com",
  metadata: { club_id: "c1" },
  capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
};

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

function linkParams(account: string): Stripe.AccountLinkCreateParams {
  return { account, type: "account_onboarding", refresh_url: REFRESH_URL, return_url: RETURN_URL };
}

describe("Stripe fake: Connect accounts through the SDK", () => {
  it("creates an Express account that cannot take charges yet, and reads it back", async () => {
    const { fake, stripe } = setup();
    const account = await stripe.accounts.create(accountParams, { idempotencyKey: "connect-c1" });
    expect(account).toMatchObject({
      object: "account",
      type: "express",
      country: "CA",
      default_currency: "cad",
      email: "treasurer@example.com",
      metadata: { club_id: "c1" },
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      capabilities: { card_payments: "inactive", transfers: "inactive" },
    });
    expect(account.id).toMatch(/^acct_\w{16}$/);
    expect(account.requirements?.currently_due).toContain("external_account");
    expect(fake.requestLog.at(-1)?.params).toMatchObject({ capabilities: { card_payments: { requested: "true" } } });
    expect(await stripe.accounts.retrieve(account.id)).toEqual(account);
  });

  it("replays the same idempotency key as the same account, so a double click makes one", async () => {
    const { fake, stripe } = setup();
    const first = await stripe.accounts.create(accountParams, { idempotencyKey: "connect-c1" });
    const again = await stripe.accounts.create(accountParams, { idempotencyKey: "connect-c1" });
    expect(again.id).toBe(first.id);
    expect(fake.accounts.size).toBe(1);
  });

  it("refuses card payments without transfers, other account types, and an account it does not have", async () => {
    const { stripe } = setup();
    const noTransfers = await rejection(stripe.accounts.create({ ...accountParams, capabilities: { card_payments: { requested: true } } }));
    expect(noTransfers).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((noTransfers as Error).message).toContain("must also have the `transfers` capability");
    expect(await rejection(stripe.accounts.create({ ...accountParams, type: "standard" }))).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    const missing = (await rejection(stripe.accounts.retrieve("acct_nothere"))) as InstanceType<typeof Stripe.errors.StripeError>;
    expect(missing.statusCode).toBe(403);
    expect(missing.code).toBe("account_invalid");
  });
});

describe("Stripe fake: account links and hosted onboarding", () => {
  it("makes a short-lived link to a hosted page with a Complete onboarding button and a way back", async () => {
    const { fake, stripe } = setup();
    const account = await stripe.accounts.create(accountParams);
    const link = await stripe.accountLinks.create(linkParams(account.id));
    expect(link).toMatchObject({ object: "account_link" });
    expect(link.url).toMatch(/^http:\/\/127\.0\.0\.1:12111\/connect\/onboarding\/\w+$/);
    expect(link.expires_at - link.created).toBe(300);
    const page = await fake.fetch(link.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<button type="submit">Complete onboarding</button>');
    expect(html).toContain(`<a href="${RETURN_URL}">Leave for now</a>`);
    // Single use: a second visit goes to refresh_url, where the platform makes a new link.
    const again = await fake.fetch(link.url, { redirect: "manual" });
    expect([again.status, again.headers.get("Location")]).toEqual([303, REFRESH_URL]);
  });

  it("completes onboarding: the account takes charges, account.updated is signed with the account set, and the club is sent back", async () => {
    const { fake, stripe, received } = setup();
    const account = await stripe.accounts.create(accountParams);
    const link = await stripe.accountLinks.create(linkParams(account.id));
    const done = await fake.completeOnboarding(link.url);
    expect(done).toEqual({ status: 303, location: RETURN_URL });
    const after = await stripe.accounts.retrieve(account.id);
    expect(after).toMatchObject({ charges_enabled: true, payouts_enabled: true, details_submitted: true, capabilities: { card_payments: "active" } });
    expect(after.requirements?.currently_due).toEqual([]);
    expect(received).toHaveLength(1);
    const event = stripe.webhooks.constructEvent(received[0]!.body, received[0]!.signature, SECRET);
    expect(event).toMatchObject({ type: "account.updated", account: account.id, data: { object: { id: account.id, charges_enabled: true } } });
    // The link is spent: submitting it again changes nothing and goes to refresh_url.
    expect(await fake.completeOnboarding(link.url)).toEqual({ status: 303, location: REFRESH_URL });
    expect(received).toHaveLength(1);
  });

  it("sends an expired link to refresh_url, and refuses a link for an account it does not have", async () => {
    let clock = Date.parse("2030-01-01T00:00:00Z");
    const { fake, stripe } = setup({ now: () => clock });
    const missing = (await rejection(stripe.accountLinks.create(linkParams("acct_nothere")))) as InstanceType<typeof Stripe.errors.StripeError>;
    expect(missing.statusCode).toBe(403);
    const account = await stripe.accounts.create(accountParams);
    const link = await stripe.accountLinks.create(linkParams(account.id));
    clock += 301_000;
    const late = await fake.fetch(link.url, { redirect: "manual" });
    expect([late.status, late.headers.get("Location")]).toEqual([303, REFRESH_URL]);
    expect((await fake.completeOnboarding(link.url)).location).toBe(REFRESH_URL);
    expect(fake.accounts.get(account.id)?.charges_enabled).toBe(false);
  });
});
