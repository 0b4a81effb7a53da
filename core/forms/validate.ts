import { canEdit, conditionChecker, isAccessible, isRequired, type ValuesById, type Viewer } from "./conditions";
import { fail, type FieldContext, type ParseResult, type RawInput } from "./field-type";
import { FORM_MESSAGES } from "./messages";
import type { FormElement, StoredValue, Tier } from "./model";
import { missingMemberDetails } from "./membership";
import { FIELD_TYPE_MODULES } from "./registry";

/** One individual's posted form, parsed, checked and priced. */

/**
 * Parses one posted value with its type's module, then applies the mandatory rule once for every
 * type: a required element whose value is empty gets "This field is required".
 */
export function parseElement(element: FormElement, raw: RawInput, ctx: FieldContext & { isAdmin?: boolean }): ParseResult<unknown> {
  const module = FIELD_TYPE_MODULES[element.type];
  let parsed: ParseResult<unknown>;
  try {
    parsed = module.parse(element, raw, ctx);
  } catch (error) {
    // optionOf throws for unknown options; for posted input that is the registrant's error, not a bug.
    if (error instanceof Error && error.message === FORM_MESSAGES.noSuchOption) return fail(FORM_MESSAGES.noSuchOption);
    throw error;
  }
  if (!parsed.ok) return parsed;
  if (module.isInput && isRequired(element, { isAdmin: ctx.isAdmin ?? false }) && module.isEmpty(parsed.value)) return fail(FORM_MESSAGES.required);
  return parsed;
}

export interface IndividualContext extends FieldContext, Viewer {
  tier: Tier;
  /** The individual's values as last saved: kept for elements this viewer cannot see or may not change. */
  saved?: ValuesById;
  /** Cart-level elements and values that conditions may name. */
  cartElements?: readonly FormElement[];
  cartValues?: ValuesById;
}

export interface IndividualResult {
  values: Record<string, StoredValue>;
  errors: Record<string, string>;
}

type Outcome = { kind: "kept"; stored: StoredValue } | { kind: "parsed"; result: ParseResult<unknown> };

/**
 * All of an individual's values from a posted form. An element the viewer cannot see (admin-only,
 * kiosk mode) or may no longer change keeps its saved value; every other input is parsed from what was
 * posted, so a field left out of the post is blank. Elements hidden by their condition are dropped:
 * no value, no error, no price. Values are whole or not at all: with any error, callers should save none.
 */
export function parseIndividual(
  elements: readonly FormElement[],
  rawByElementId: Readonly<Record<string, RawInput>>,
  ctx: IndividualContext,
): IndividualResult {
  const inputs = [...elements].filter((element) => FIELD_TYPE_MODULES[element.type].isInput).sort((a, b) => a.ordinal - b.ordinal);
  const outcomes = new Map<string, Outcome>();
  for (const element of inputs) {
    const saved = ctx.saved?.[element.id];
    const module = FIELD_TYPE_MODULES[element.type];
    const hasSavedValue = saved !== undefined && !module.isEmpty(saved.v);
    const editable = isAccessible(element, ctx) && canEdit(element, { isAdmin: ctx.isAdmin, hasSavedValue });
    if (!editable) {
      if (saved) outcomes.set(element.id, { kind: "kept", stored: saved });
      continue;
    }
    const raw = Object.hasOwn(rawByElementId, element.id) ? rawByElementId[element.id] : undefined;
    outcomes.set(element.id, { kind: "parsed", result: parseElement(element, raw, ctx) });
  }

  // Conditions read the values just parsed; a value that failed to parse counts as empty.
  const current: Record<string, StoredValue> = {};
  for (const [id, outcome] of outcomes) {
    if (outcome.kind === "kept") current[id] = outcome.stored;
    else if (outcome.result.ok && outcome.result.value !== null) current[id] = { v: outcome.result.value, p: 0 };
  }
  const isShown = conditionChecker({ elements, values: current, cartElements: ctx.cartElements, cartValues: ctx.cartValues });

  const result: IndividualResult = { values: {}, errors: {} };
  for (const element of inputs) {
    const outcome = outcomes.get(element.id);
    if (!outcome || !isShown(element)) continue;
    if (outcome.kind === "kept") {
      // Saved at the price of its day; repricing is the cart's decision, not this form's.
      result.values[element.id] = outcome.stored;
    } else if (!outcome.result.ok) {
      result.errors[element.id] = outcome.result.error;
    } else if (outcome.result.value !== null) {
      const value = outcome.result.value;
      result.values[element.id] = { v: value, p: Math.max(0, FIELD_TYPE_MODULES[element.type].price(element, value, ctx.tier)) };
    }
  }
  // A membership is issued to a person: choosing one needs their details on the same form.
  for (const element of inputs) {
    if (element.type !== "membership" || !result.values[element.id] || result.errors[element.id]) continue;
    const missing = missingMemberDetails(inputs.filter(isShown), (id) => result.values[id] !== undefined);
    if (missing.length > 0) result.errors[element.id] = FORM_MESSAGES.membershipDetails(missing);
  }
  return result;
}
