/**
 * Places: what a completed cart takes from the form's limits. Each person who chose an option takes a place
 * in that option's pool and in its field's pool; a person who answered a field with a quantity_limit takes a
 * place in the field's pool; each use of a discount code takes a place in the code's pool. A pool's cap is the
 * limit (option limit, quantity_limit, code qty); a null cap is unlimited but the place is still recorded, so
 * a limit an organiser sets later counts the people who already have it.
 *
 * The database holds the count: a cart holds its places when its payment starts and takes them when it
 * completes, and a row that would pass its cap is refused where it is written (schema/d1 places).
 */
import type { FormElement, StoredValue } from "../forms/model";
import { FIELD_TYPE_MODULES } from "../forms/registry";
import { onlyLeftMessage, SOLD_OUT } from "./messages";

export interface PlaceClaim {
  pool: string;
  unit: string;
  individualId: string | null;
  cap: number | null;
}

const OPTION_TYPES = new Set(["option", "multioption", "membership"]);

export function optionPool(elementId: string, optionId: string): string {
  return `opt:${elementId}:${optionId}`;
}
export function elementPool(elementId: string): string {
  return `el:${elementId}`;
}
export function codePool(code: string): string {
  return `code:${code.toUpperCase()}`;
}

/** The form element a pool counts for (none for a code's pool). */
export function elementOfPool(pool: string): string | null {
  const [kind, elementId] = pool.split(":");
  return kind === "opt" || kind === "el" ? (elementId ?? null) : null;
}

/** The option ids a stored value holds: one, several (multi-option) or a membership's option. */
export function chosenOptions(value: StoredValue | undefined): string[] {
  const v = value?.v;
  if (typeof v === "string") return v === "" ? [] : [v];
  if (Array.isArray(v)) return v.filter((id): id is string => typeof id === "string" && id !== "");
  if (v && typeof v === "object" && typeof (v as { option?: unknown }).option === "string") return [(v as { option: string }).option];
  return [];
}

function isAnswered(value: StoredValue | undefined): boolean {
  const v = value?.v;
  return v !== undefined && v !== null && v !== "" && !(Array.isArray(v) && v.length === 0);
}

/**
 * Whether an answer takes one of a limited field's places: one its field type counts as given (an unticked checkbox
 * stores false, which is not), and on a yes/no only "yes" ("no" chooses nothing, and is not charged either).
 */
function takesPlace(element: FormElement, value: StoredValue | undefined): value is StoredValue {
  if (!isAnswered(value)) return false;
  if (FIELD_TYPE_MODULES[element.type].isEmpty(value!.v as never)) return false;
  return !(element.type === "yesno" && value!.v === "no");
}

function capOf(limit: number | null | undefined): number | null {
  return limit === null || limit === undefined ? null : Math.max(0, Math.floor(limit));
}

/** The places one person takes with these answers. */
export function placesOfPerson(elements: readonly FormElement[], individualId: string, values: Record<string, StoredValue>): PlaceClaim[] {
  const claims: PlaceClaim[] = [];
  for (const element of elements) {
    const value = values[element.id];
    if (!takesPlace(element, value)) continue;
    const isOptionType = OPTION_TYPES.has(element.type);
    if (!isOptionType && element.quantity_limit == null) continue;
    claims.push({ pool: elementPool(element.id), unit: individualId, individualId, cap: capOf(element.quantity_limit) });
    if (!isOptionType) continue;
    for (const optionId of chosenOptions(value)) {
      const option = element.options_list.find((o) => o.id === optionId);
      if (option) claims.push({ pool: optionPool(element.id, optionId), unit: individualId, individualId, cap: capOf(option.limit) });
    }
  }
  return claims;
}

/** Every place a cart takes: its counted people's answers and the uses of each code it priced with. */
export function placesOfCart(
  elements: readonly FormElement[],
  cartId: string,
  people: readonly { id: string; values: Record<string, StoredValue> }[],
  codeUses: Readonly<Record<string, number>>,
): PlaceClaim[] {
  const claims = people.flatMap((person) => placesOfPerson(elements, person.id, person.values));
  const qtyOf = codeLimits(elements);
  for (const [code, uses] of Object.entries(codeUses)) {
    for (let n = 1; n <= uses; n++)
      claims.push({ pool: codePool(code), unit: `${cartId}#${n}`, individualId: null, cap: qtyOf.get(code.toUpperCase()) ?? null });
  }
  return claims;
}

/** Each code's qty across the form's discount fields (the smallest when two fields share a code). */
function codeLimits(elements: readonly FormElement[]): Map<string, number | null> {
  const limits = new Map<string, number | null>();
  for (const element of elements) {
    if (element.type !== "discount") continue;
    for (const entry of element.config.discounts_list ?? []) {
      const code = entry.code.toUpperCase();
      const qty = capOf(entry.qty);
      const known = limits.get(code);
      limits.set(code, known === undefined ? qty : known === null ? qty : qty === null ? known : Math.min(known, qty));
    }
  }
  return limits;
}

/** Claims with a cap, grouped by pool: what must fit when a cart holds or takes its places. */
export function cappedPools(claims: readonly PlaceClaim[]): Map<string, { cap: number; wanted: number }> {
  const pools = new Map<string, { cap: number; wanted: number }>();
  for (const claim of claims) {
    if (claim.cap === null) continue;
    const pool = pools.get(claim.pool) ?? { cap: claim.cap, wanted: 0 };
    pool.cap = Math.min(pool.cap, claim.cap);
    pool.wanted++;
    pools.set(claim.pool, pool);
  }
  return pools;
}

/** What a registrant is told about a pool that cannot take what the cart wants: 'Sold out' or 'Only N left'. */
export function placeProblem(cap: number, takenByOthers: number, wanted: number): string | null {
  const remaining = Math.max(0, cap - takenByOthers);
  if (wanted <= remaining) return null;
  return remaining === 0 ? SOLD_OUT : onlyLeftMessage(remaining);
}

/** The words naming a pool for the registrant: the option's label, the field's caption, or the code. */
export function poolLabel(elements: readonly FormElement[], pool: string, lang: "en" | "fr" = "en"): string {
  const [kind, first, second] = pool.split(":");
  if (kind === "code") return first ?? "";
  const element = elements.find((e) => e.id === first);
  if (!element) return "";
  const option = kind === "opt" ? element.options_list.find((o) => o.id === second) : undefined;
  if (!option) return element.caption;
  return lang === "fr" && option.display_fr ? option.display_fr : option.display;
}
