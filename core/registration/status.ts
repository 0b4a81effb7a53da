/**
 * Registration status and opening (platform.md section 4). approval_status holds a marker prefix and the
 * note that goes with it: "required: Add a refund policy". The markers are ours (the spec only says a
 * marker prefix): `required:` and `recommended:` set the status; `approved:` and `submitted:` only carry
 * a note. A value with no marker (older data) is all note. Times are epoch milliseconds.
 */

export type RegistrationStatus = "Live Mode" | "Changes Required" | "Changes Recommended" | "Pending Approval" | "Test Mode";

export const APPROVAL_MARKERS = {
  approve: "approved:",
  requireChanges: "required:",
  recommendChanges: "recommended:",
  submit: "submitted:",
} as const;

export type ApprovalAction = keyof typeof APPROVAL_MARKERS;

export interface RegistrationApproval {
  is_approved: boolean;
  is_pending: boolean;
  approval_status: string | null;
}

export interface RegistrationWindow {
  is_approved: boolean;
  open_time: number | null;
  close_time: number | null;
}

/** Live when approved; then changes required or recommended by marker; then pending; otherwise test mode. */
export function registrationStatus(registration: RegistrationApproval): RegistrationStatus {
  const approvalStatus = registration.approval_status ?? "";
  if (registration.is_approved) return "Live Mode";
  if (approvalStatus.startsWith(APPROVAL_MARKERS.requireChanges)) return "Changes Required";
  if (approvalStatus.startsWith(APPROVAL_MARKERS.recommendChanges)) return "Changes Recommended";
  if (registration.is_pending) return "Pending Approval";
  return "Test Mode";
}

/** The note in an approval_status: what follows its marker, trimmed; the whole value when it has none. */
export function approvalNoteOf(approvalStatus: string | null): string {
  const value = approvalStatus ?? "";
  const marker = Object.values(APPROVAL_MARKERS).find((prefix) => value.startsWith(prefix));
  return (marker === undefined ? value : value.slice(marker.length)).trim();
}

/** The approval_status to store for `action`: its marker, then the note after a space when there is one. */
export function approvalStatusFor(action: ApprovalAction, note = ""): string {
  const trimmed = note.trim();
  return trimmed === "" ? APPROVAL_MARKERS[action] : `${APPROVAL_MARKERS[action]} ${trimmed}`;
}

/**
 * Everything an approval action stores, so the flags and the marker always agree: approving makes the
 * form live; requiring or recommending changes sends it back to the club (neither approved nor pending);
 * submitting puts it in the queue and replaces the reviewer's last note with the club's.
 */
export function approvalChangeFor(action: ApprovalAction, note = ""): RegistrationApproval & { approval_status: string } {
  return {
    is_approved: action === "approve",
    is_pending: action === "submit",
    approval_status: approvalStatusFor(action, note),
  };
}

/** Approved, and open_time ≤ now < close_time; a null open_time is open from the start, a null close_time never closes. */
export function isOpen(registration: RegistrationWindow, now: number): boolean {
  if (!registration.is_approved) return false;
  if (registration.open_time !== null && now < registration.open_time) return false;
  return registration.close_time === null || now < registration.close_time;
}

/** Approved, and now ≥ close_time. Before opening a form is neither open nor closed. */
export function isClosed(registration: RegistrationWindow, now: number): boolean {
  return registration.is_approved && registration.close_time !== null && now >= registration.close_time;
}
