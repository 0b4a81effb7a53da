/**
 * What the club admin page says about a club's Stripe connected account, and which button it offers
 * (decision 0041). Pure: the flags are the ones stored on the club from Stripe's account object.
 */

export interface ConnectState {
  /** The server has Stripe keys (a gateway); without them no club takes cards. */
  configured: boolean;
  /** The platform collects this club's card payments on its own account. */
  isMerchant: boolean;
  accountId: string | null;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
  requirementsDue: readonly string[];
}

export type ConnectStage = "unconfigured" | "merchant" | "not_connected" | "onboarding" | "enabled";

export const CONNECT_WORDS = {
  unconfigured: "Card payments are not configured on this server.",
  merchant: "The platform collects this club's card payments and pays them out to the club's bank account, so the club needs no Stripe account of its own.",
  notConnected: "Not connected",
  connect: "Connect with Stripe",
  continue: "Continue onboarding",
} as const;

export function connectStageOf(state: ConnectState): ConnectStage {
  if (!state.configured) return "unconfigured";
  if (state.isMerchant) return "merchant";
  if (!state.accountId) return "not_connected";
  return state.chargesEnabled ? "enabled" : "onboarding";
}

function requirementsDue(count: number): string {
  return `${count} ${count === 1 ? "requirement" : "requirements"} due`;
}

/** The state in words: "Not connected", "Onboarding not finished: 3 requirements due", "Charges enabled, payouts enabled". */
export function connectStatusWords(state: ConnectState): string {
  const due = state.requirementsDue.length;
  switch (connectStageOf(state)) {
    case "unconfigured":
      return CONNECT_WORDS.unconfigured;
    case "merchant":
      return CONNECT_WORDS.merchant;
    case "not_connected":
      return CONNECT_WORDS.notConnected;
    case "onboarding":
      return due > 0 ? `Onboarding not finished: ${requirementsDue(due)}` : "Onboarding not finished";
    case "enabled":
      return `Charges enabled, payouts ${state.payoutsEnabled ? "enabled" : "not enabled yet"}${due > 0 ? `; ${requirementsDue(due)}` : ""}`;
  }
}

/** The button that takes the club's admin to Stripe, or null when there is nothing to do there. */
export function connectActionOf(state: ConnectState): string | null {
  const stage = connectStageOf(state);
  if (stage === "not_connected") return CONNECT_WORDS.connect;
  if (stage === "onboarding") return CONNECT_WORDS.continue;
  if (stage === "enabled" && (!state.payoutsEnabled || !state.detailsSubmitted || state.requirementsDue.length > 0)) return CONNECT_WORDS.continue;
  return null;
}
