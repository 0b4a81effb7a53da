import { describe, expect, it } from "vitest";
import { connectActionOf, connectStageOf, connectStatusWords, type ConnectState } from "./connect-status";

const connected: ConnectState = {
  configured: true,
  isMerchant: false,
  accountId: "acct_1",
  chargesEnabled: true,
  payoutsEnabled: true,
  detailsSubmitted: true,
  requirementsDue: [],
};

describe("a club's Stripe connection in words", () => {
  it("says what a fully onboarded account may do, and offers no button", () => {
    expect(connectStatusWords(connected)).toBe("Charges enabled, payouts enabled");
    expect(connectActionOf(connected)).toBeNull();
  });

  it("offers to connect a club with no account", () => {
    const state = { ...connected, accountId: null, chargesEnabled: false, payoutsEnabled: false, detailsSubmitted: false };
    expect(connectStatusWords(state)).toBe("Not connected");
    expect(connectActionOf(state)).toBe("Connect with Stripe");
  });

  it("counts what Stripe still needs while onboarding is not finished", () => {
    const state = {
      ...connected,
      chargesEnabled: false,
      payoutsEnabled: false,
      detailsSubmitted: false,
      requirementsDue: ["business_type", "external_account"],
    };
    expect(connectStatusWords(state)).toBe("Onboarding not finished: 2 requirements due");
    expect(connectStatusWords({ ...state, requirementsDue: ["external_account"] })).toBe("Onboarding not finished: 1 requirement due");
    expect(connectStatusWords({ ...state, requirementsDue: [] })).toBe("Onboarding not finished");
    expect(connectActionOf(state)).toBe("Continue onboarding");
  });

  it("keeps offering onboarding while payouts wait or something is due, charges already on", () => {
    const state = { ...connected, payoutsEnabled: false, requirementsDue: ["external_account"] };
    expect(connectStatusWords(state)).toBe("Charges enabled, payouts not enabled yet; 1 requirement due");
    expect(connectActionOf(state)).toBe("Continue onboarding");
  });

  it("says so for a merchant club and for a server without Stripe, whatever the flags", () => {
    expect(connectStageOf({ ...connected, isMerchant: true })).toBe("merchant");
    expect(connectActionOf({ ...connected, isMerchant: true, accountId: null })).toBeNull();
    expect(connectStatusWords({ ...connected, configured: false, isMerchant: true })).toBe("Card payments are not configured on this server.");
    expect(connectActionOf({ ...connected, configured: false, accountId: null })).toBeNull();
  });
});
