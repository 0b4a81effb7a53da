/** Messages registrants see from core/registration. */

// not in the spec: our wording
export const SOLD_OUT = "Sold out";

// not in the spec: our wording
export function onlyLeftMessage(remaining: number): string {
  return `Only ${remaining} left`;
}
