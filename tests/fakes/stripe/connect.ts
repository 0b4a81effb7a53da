// Stripe Connect in the fake: Express accounts, account links, and the hosted onboarding page they open, which
// completes the account and sends account.updated (with the top-level `account`, as Stripe does for Connect events).
import { escapeHtml, layout, renderNotFoundPage } from "./checkout-page";
import { FakeStripeError, invalidRequest } from "./errors";
import type { Handler, Route } from "./handler";
import { newId, snapshot, type Metadata } from "./objects";
import type { RecordedEvent } from "./webhooks";

export type CapabilityStatus = "inactive" | "pending" | "active";

export interface Requirements {
  alternatives: unknown[];
  current_deadline: number | null;
  currently_due: string[];
  disabled_reason: string | null;
  errors: unknown[];
  eventually_due: string[];
  past_due: string[];
  pending_verification: string[];
}

export interface ConnectedAccount {
  id: string;
  object: "account";
  business_profile: { mcc: string | null; name: string | null; url: string | null };
  business_type: string | null;
  capabilities: Record<string, CapabilityStatus>;
  charges_enabled: boolean;
  controller: { type: "application"; is_controller: true };
  country: string;
  created: number;
  default_currency: string;
  details_submitted: boolean;
  email: string | null;
  external_accounts: { object: "list"; data: unknown[]; has_more: false; total_count: number; url: string };
  future_requirements: Requirements;
  metadata: Metadata;
  payouts_enabled: boolean;
  requirements: Requirements;
  tos_acceptance: { date: number | null };
  type: "express";
}

export interface AccountLink {
  object: "account_link";
  created: number;
  expires_at: number;
  url: string;
}

interface StoredLink {
  account: string;
  refreshUrl: string;
  returnUrl: string;
  expiresAt: number;
  /** Stripe's links are single-use: a second visit is sent to refresh_url. */
  visited: boolean;
  completed: boolean;
}

export interface ConnectOptions {
  baseUrl: string;
  now: () => number;
  /** Records an event about `object` on a connected account (the event's top-level `account`). */
  record: (type: string, object: { id: string }, account: string) => RecordedEvent;
  dispatch: (events: readonly RecordedEvent[]) => Promise<void>;
}

export interface OnboardingResult {
  status: number;
  location: string | null;
}

const ACCOUNT_PARAMS = ["type", "country", "email", "metadata", "capabilities", "business_type", "business_profile", "default_currency", "expand"];
const ACCOUNT_LINK_PARAMS = ["account", "type", "refresh_url", "return_url", "collect", "collection_options", "expand"];
/** What Stripe asks a new Canadian Express account for before it may take charges. */
const INITIAL_REQUIREMENTS = [
  "business_profile.mcc",
  "business_profile.url",
  "business_type",
  "external_account",
  "representative.first_name",
  "representative.last_name",
  "tos_acceptance.date",
  "tos_acceptance.ip",
];
const CURRENCY_OF: Record<string, string> = { CA: "cad", US: "usd", GB: "gbp", AU: "aud", NZ: "nzd" };
const LINK_LIFETIME_SECONDS = 300;
export const ONBOARDING_PATH = /^\/connect\/onboarding\/([^/]+)$/;

function requirements(due: string[]): Requirements {
  return {
    alternatives: [],
    current_deadline: null,
    currently_due: [...due],
    disabled_reason: due.length > 0 ? "requirements.past_due" : null,
    errors: [],
    eventually_due: [...due],
    past_due: [...due],
    pending_verification: [],
  };
}

function html(status: number, body: string): Response {
  return new Response(body, { status, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location } });
}

/** Stripe's answer for an account the platform does not have (or that does not exist). */
function noAccess(id: string): FakeStripeError {
  const message = `The provided key does not have access to account '${id}' (or that account does not exist). Application access may have been revoked.`;
  return new FakeStripeError(403, { type: "invalid_request_error", code: "account_invalid", message });
}

export function createConnect(options: ConnectOptions) {
  const accounts = new Map<string, ConnectedAccount>();
  const links = new Map<string, StoredLink>();
  const seconds = () => Math.floor(options.now() / 1000);

  const createAccount: Handler = (context, params) => {
    params.rejectUnknown(ACCOUNT_PARAMS);
    if (context.account !== null) throw invalidRequest("Connected accounts are created by the platform, without a Stripe-Account header.");
    const type = params.oneOf("type", ["standard", "express", "custom"]);
    if (type !== "express") throw invalidRequest("The Stripe fake supports only type=express.", "type");
    const country = (params.string("country") ?? "CA").toUpperCase();
    if (!/^[A-Z]{2}$/.test(country))
      throw invalidRequest(
        `Country '${country}' is unknown. Try using a 2-character alphanumeric country code instead, such as 'US', 'EG', or 'GB'.`,
        "country",
      );
    const email = params.string("email", { max: 800 }) ?? null;
    if (email !== null && !/^[^@\s]+@[^@\s]+$/.test(email)) throw invalidRequest(`Invalid email address: ${email}`, "email", "email_invalid");
    const metadata = params.metadata("metadata");
    const capabilities: Record<string, CapabilityStatus> = {};
    const requested = params.child("capabilities");
    for (const name of ["card_payments", "transfers"]) {
      const capability = requested?.child(name);
      capability?.rejectUnknown(["requested"]);
      if (capability?.boolean("requested")) capabilities[name] = "inactive";
    }
    if (capabilities.card_payments && !capabilities.transfers) {
      throw invalidRequest("Accounts with the `card_payments` capability must also have the `transfers` capability.", "capabilities");
    }
    params.string("business_type");
    params.child("business_profile");
    params.stringList("expand");
    const id = newId("acct_", 16);
    const account: ConnectedAccount = {
      id,
      object: "account",
      business_profile: { mcc: null, name: null, url: null },
      business_type: null,
      capabilities,
      charges_enabled: false,
      controller: { type: "application", is_controller: true },
      country,
      created: seconds(),
      default_currency: params.string("default_currency") ?? CURRENCY_OF[country] ?? "usd",
      details_submitted: false,
      email,
      external_accounts: { object: "list", data: [], has_more: false, total_count: 0, url: `/v1/accounts/${id}/external_accounts` },
      future_requirements: requirements([]),
      metadata,
      payouts_enabled: false,
      requirements: requirements(INITIAL_REQUIREMENTS),
      tos_acceptance: { date: null },
      type: "express",
    };
    accounts.set(id, account);
    return { body: snapshot(account), events: [] };
  };

  const retrieveAccount: Handler = (context, params, id) => {
    params.rejectUnknown(["expand"]);
    const account = accounts.get(id);
    // The platform reads its connected accounts; a connected account reads only itself.
    if (!account || (context.account !== null && context.account !== id)) throw noAccess(id);
    return { body: snapshot(account), events: [] };
  };

  const createAccountLink: Handler = (context, params) => {
    params.rejectUnknown(ACCOUNT_LINK_PARAMS);
    const accountId = params.string("account", { required: true });
    const type = params.oneOf("type", ["account_onboarding", "account_update"], { required: true });
    const refreshUrl = params.url("refresh_url", { required: true });
    const returnUrl = params.url("return_url", { required: true });
    params.string("collect");
    params.child("collection_options");
    const account = accounts.get(accountId);
    if (!account || context.account !== null) throw noAccess(accountId);
    if (type === "account_update") throw invalidRequest("You cannot create `account_update` type Account Links for Express accounts.", "type");
    const token = newId("", 32);
    const created = seconds();
    links.set(token, { account: accountId, refreshUrl, returnUrl, expiresAt: created + LINK_LIFETIME_SECONDS, visited: false, completed: false });
    const link: AccountLink = {
      object: "account_link",
      created,
      expires_at: created + LINK_LIFETIME_SECONDS,
      url: `${options.baseUrl}/connect/onboarding/${token}`,
    };
    return { body: link, events: [] };
  };

  const routes: Route[] = [
    { method: "POST", pattern: /^\/v1\/accounts$/, handler: createAccount },
    { method: "GET", pattern: /^\/v1\/accounts\/([^/]+)$/, handler: retrieveAccount },
    { method: "POST", pattern: /^\/v1\/account_links$/, handler: createAccountLink },
  ];

  /** Everything Stripe asks for is given: the account may take charges and be paid out. */
  function complete(account: ConnectedAccount): RecordedEvent {
    account.charges_enabled = true;
    account.payouts_enabled = true;
    account.details_submitted = true;
    account.business_type = "individual";
    account.tos_acceptance = { date: seconds() };
    account.requirements = requirements([]);
    for (const name of Object.keys(account.capabilities)) account.capabilities[name] = "active";
    return options.record("account.updated", account, account.id);
  }

  function onboardingPage(token: string, link: StoredLink, account: ConnectedAccount): string {
    const due = account.requirements.currently_due;
    return layout(
      "Set up payments",
      `<p class="test-mode">Test mode (Stripe fake). Completing onboarding fills in everything Stripe asks for.</p>
<h1>Set up payments</h1>
<p>Account <code>${escapeHtml(account.id)}</code>${account.email ? ` for ${escapeHtml(account.email)}` : ""}.</p>
${due.length > 0 ? `<p>Stripe needs ${due.length} more details: ${due.map(escapeHtml).join(", ")}.</p>` : "<p>Nothing more is needed.</p>"}
<form method="post" action="/connect/onboarding/${encodeURIComponent(token)}">
<button type="submit">Complete onboarding</button>
</form>
<p><a href="${escapeHtml(link.returnUrl)}">Leave for now</a></p>`,
    );
  }

  /** The hosted onboarding page: GET shows it once, POST completes the account and returns to the platform. */
  async function hostedOnboarding(request: Request, token: string): Promise<Response> {
    const link = links.get(token);
    const account = link ? accounts.get(link.account) : undefined;
    if (!link || !account) return html(404, renderNotFoundPage());
    const method = request.method.toUpperCase();
    // An expired or already used link goes to refresh_url, where the platform makes a new one.
    if (link.expiresAt <= seconds() || link.completed) return seeOther(link.refreshUrl);
    if (method === "GET" || method === "HEAD") {
      if (link.visited) return seeOther(link.refreshUrl);
      link.visited = true;
      return html(200, onboardingPage(token, link, account));
    }
    if (method !== "POST") return new Response("Method Not Allowed", { status: 405, headers: { Allow: "GET, POST" } });
    await request.text();
    // Checked again after the body is read, so of two quick submits only the first completes.
    if (link.completed) return seeOther(link.refreshUrl);
    link.completed = true;
    await options.dispatch([complete(account)]);
    return seeOther(link.returnUrl);
  }

  return { accounts: accounts as ReadonlyMap<string, Readonly<ConnectedAccount>>, routes, hostedOnboarding };
}
