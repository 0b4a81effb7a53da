import { describe, expect, it } from "vitest";
import { approvalChangeFor, approvalNoteOf, approvalStatusFor, isClosed, isOpen, registrationStatus } from "./status";

const registration = (overrides: Partial<Parameters<typeof registrationStatus>[0]> = {}) => ({
  is_approved: false,
  is_pending: false,
  approval_status: "",
  ...overrides,
});

describe("registrationStatus", () => {
  it("is Live Mode when approved, whatever else is set", () => {
    expect(registrationStatus(registration({ is_approved: true, is_pending: true, approval_status: "required: fix it" }))).toBe("Live Mode");
  });

  it("is Changes Required or Changes Recommended by marker, before pending", () => {
    expect(registrationStatus(registration({ approval_status: "required: Add a waiver" }))).toBe("Changes Required");
    expect(registrationStatus(registration({ approval_status: "recommended: Add a logo", is_pending: true }))).toBe("Changes Recommended");
  });

  it("needs the marker at the start", () => {
    expect(registrationStatus(registration({ approval_status: "not required: really" }))).toBe("Test Mode");
    expect(registrationStatus(registration({ approval_status: "Required: capitalised" }))).toBe("Test Mode");
  });

  it("is Pending Approval when pending, otherwise Test Mode", () => {
    expect(registrationStatus(registration({ is_pending: true, approval_status: "submitted: please" }))).toBe("Pending Approval");
    expect(registrationStatus(registration())).toBe("Test Mode");
    expect(registrationStatus(registration({ approval_status: null }))).toBe("Test Mode");
  });
});

describe("approvalNoteOf", () => {
  it("is what follows the marker, trimmed", () => {
    expect(approvalNoteOf("required: Add a waiver ")).toBe("Add a waiver");
    expect(approvalNoteOf("recommended:Add a logo")).toBe("Add a logo");
    expect(approvalNoteOf("approved:")).toBe("");
    expect(approvalNoteOf("submitted: First event of the season")).toBe("First event of the season");
  });

  it("is the whole value when there is no marker", () => {
    expect(approvalNoteOf("Looks fine")).toBe("Looks fine");
    expect(approvalNoteOf(null)).toBe("");
  });
});

describe("approvalStatusFor and approvalChangeFor", () => {
  it("builds the stored string, which reads back as the status and note", () => {
    expect(approvalStatusFor("requireChanges", " Add a waiver ")).toBe("required: Add a waiver");
    expect(approvalStatusFor("recommendChanges")).toBe("recommended:");
    expect(approvalNoteOf(approvalStatusFor("recommendChanges", "Add a logo"))).toBe("Add a logo");
  });

  it("sets the flags to match each action", () => {
    expect(approvalChangeFor("approve", "Thanks")).toEqual({ is_approved: true, is_pending: false, approval_status: "approved: Thanks" });
    expect(approvalChangeFor("submit")).toEqual({ is_approved: false, is_pending: true, approval_status: "submitted:" });
    expect(registrationStatus(approvalChangeFor("approve"))).toBe("Live Mode");
    expect(registrationStatus(approvalChangeFor("requireChanges", "x"))).toBe("Changes Required");
    expect(registrationStatus(approvalChangeFor("recommendChanges", "x"))).toBe("Changes Recommended");
    expect(registrationStatus(approvalChangeFor("submit", "x"))).toBe("Pending Approval");
  });
});

describe("isOpen and isClosed", () => {
  const OPEN = Date.UTC(2026, 0, 1);
  const CLOSE = Date.UTC(2026, 5, 1);
  const live = { is_approved: true, open_time: OPEN, close_time: CLOSE };

  it("is open from open_time until close_time, then closed", () => {
    expect([isOpen(live, OPEN - 1), isClosed(live, OPEN - 1)]).toEqual([false, false]);
    expect([isOpen(live, OPEN), isClosed(live, OPEN)]).toEqual([true, false]);
    expect([isOpen(live, CLOSE - 1), isClosed(live, CLOSE - 1)]).toEqual([true, false]);
    expect([isOpen(live, CLOSE), isClosed(live, CLOSE)]).toEqual([false, true]);
  });

  it("reads null times as open from the start and never closing", () => {
    const always = { is_approved: true, open_time: null, close_time: null };
    expect(isOpen(always, 0)).toBe(true);
    expect(isClosed(always, Number.MAX_SAFE_INTEGER)).toBe(false);
  });

  it("is neither until approved", () => {
    const draft = { ...live, is_approved: false };
    expect(isOpen(draft, OPEN)).toBe(false);
    expect(isClosed(draft, CLOSE)).toBe(false);
  });
});
