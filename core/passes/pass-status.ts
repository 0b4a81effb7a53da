/**
 * Passes and member cards (issue 27, decision 0050): what a card's state is on a day, the words a check-in
 * shows, how its number is printed, and where the signed token sits in whatever a scanner read.
 */

export type PassState = "valid" | "not_yet_valid" | "expired" | "revoked";
export type CheckResult = PassState | "other_club" | "unknown";

/** What the check-in page says for each result: the words, plus one for a card whose season has not begun. */
export const CHECK_RESULT_TEXT: Readonly<Record<CheckResult, string>> = {
  valid: "Valid",
  not_yet_valid: "Not yet valid",
  expired: "Expired",
  revoked: "Revoked",
  other_club: "Not a pass of this club",
  unknown: "Not recognised",
};

export const PASS_MESSAGES = {
  holderName: "Enter the holder's name",
  holderEmail: "Enter a valid email address, or leave it empty",
  season: "Name the season, for example 2026–27",
  validFrom: "Enter the first day the card is valid",
  validUntil: "Enter the last day the card is valid",
  order: "The last valid day must be on or after the first",
  reason: "Say why the card is revoked",
  alreadyRevoked: "This card is already revoked",
  scanned: "Scan a card's code or paste it here",
  lang: "Choose English or French",
} as const;

/** Why a member card was revoked for the club (decision 0063): the card's history and check-in show these words. */
export const CARD_REVOKE_REASONS = {
  membershipRemoved: "Membership removed",
  membershipMoved: "Membership moved to another season",
} as const;

/** A member card is issued once per membership: its source names the membership (decision 0050). */
export const memberCardSource = (memberId: string) => `member:${memberId}`;

export interface PassDates {
  readonly validFrom: string | null;
  readonly validUntil: string | null;
  readonly revokedTime: number | null;
}

/**
 * A card's state on a day (YYYY-MM-DD, the club's date): a revoked card is revoked whatever its dates; valid
 * from its first to its last day inclusive; an open end is unbounded.
 */
export function passState(pass: PassDates, today: string): PassState {
  if (pass.revokedTime !== null) return "revoked";
  if (pass.validFrom && today < pass.validFrom) return "not_yet_valid";
  if (pass.validUntil && today > pass.validUntil) return "expired";
  return "valid";
}

/** The printed number: six digits at least, so cards sort and read alike. */
export const passNumberText = (n: number) => String(n).padStart(6, "0");

const TOKEN = /p1\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{22})(?![A-Za-z0-9_-])/;

/**
 * The pass id and signature in a scanned or pasted text: the card's whole link (as a phone camera reads the
 * QR code), its token alone, or either with spaces around. Null when it holds no token at all.
 */
export function tokenInScan(text: string): { token: string; passId: string; signature: string } | null {
  const decoded = text.includes("%2E") || text.includes("%2e") ? safeDecode(text) : text;
  const match = TOKEN.exec(decoded);
  if (!match) return null;
  return { token: match[0], passId: match[1]!, signature: match[2]! };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
