/** Messages registrants see from core/registration. */

// not in the spec: our wording
export const SOLD_OUT = "Sold out";

// not in the spec: our wording
export function onlyLeftMessage(remaining: number): string {
  return `Only ${remaining} left`;
}

// not in the spec: our wording
export const REGISTRATION_MESSAGES = {
  notOffered: "That choice is not available for this person",
  noPeople: "Add at least one person before you continue",
  cartFull: (max: number) => `A cart can hold at most ${max} people`,
  personGone: "This person is no longer in the cart",
} as const;
