import { labelIn } from "./bilingual";
import type { ConditionOperator, FormElement, StoredValue } from "./model";
import { readDecimal } from "./number";
import { FIELD_TYPE_MODULES } from "./registry";

/**
 * Who sees which element. An element is shown when the viewer may see it (admin-only, kiosk mode)
 * and its condition on another element's value holds. An element hidden by its condition is neither
 * validated, priced nor required, and counts as empty for the elements that depend on it.
 */

export type ValuesById = Readonly<Record<string, StoredValue | undefined>>;

export interface Viewer {
  isAdmin: boolean;
  isKiosk: boolean;
}

export interface ConditionScope {
  /** Elements of the individual's form. */
  elements: readonly FormElement[];
  /** This individual's values by element id. */
  values: ValuesById;
  /** Cart-level elements and their values, which conditions may also name. */
  cartElements?: readonly FormElement[];
  cartValues?: ValuesById;
}

/**
 * Our reading of the flags: is_admin_only elements are seen by admins only; is_kiosk_mode elements
 * only in kiosk mode (the club's on-site sign-up screen), by admins too, since outside the kiosk
 * they do not apply.
 */
export function isAccessible(element: FormElement, viewer: Viewer): boolean {
  if (element.is_admin_only && !viewer.isAdmin) return false;
  if (element.is_kiosk_mode && !viewer.isKiosk) return false;
  return true;
}

/** is_mandatory binds everyone; is_admin_mandatory binds only an admin filling the form in. */
export function isRequired(element: FormElement, viewer: { isAdmin: boolean }): boolean {
  return element.is_mandatory || (viewer.isAdmin && element.is_admin_mandatory);
}

/** is_edit_forbidden: once a value is saved, only an admin can change it. */
export function canEdit(element: FormElement, who: { isAdmin: boolean; hasSavedValue: boolean }): boolean {
  return who.isAdmin || !element.is_edit_forbidden || !who.hasSavedValue;
}

/**
 * The texts a condition compares a value by: an option's id, value and labels in both languages;
 * yes/no for booleans; dollars for a donation (stored in cents, but the builder types dollars).
 */
export function conditionTexts(element: FormElement, value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((item) => conditionTexts(element, item));
  if (typeof value === "boolean") return value ? ["yes", "true"] : ["no", "false"];
  if (typeof value === "number") return [String(element.type === "donation" ? value / 100 : value)];
  if (typeof value === "object") {
    if ("addresses" in value) return [String(value.addresses)];
    if ("option" in value && "member_type" in value) return [...conditionTexts(element, String(value.option)), String(value.member_type)];
    return [];
  }
  const text = String(value);
  const option = element.options_list.find((candidate) => candidate.id === text);
  if (!option) return [text];
  return [
    option.id,
    ...(option.value ? [option.value] : []),
    labelIn(option.display, "en"),
    labelIn(option.display, "fr"),
    ...(option.display_fr ? [option.display_fr] : []),
  ];
}

function compareTexts(a: string, b: string): number {
  const x = readDecimal(a.trim());
  const y = readDecimal(b.trim());
  if (x !== null && y !== null) return x - y;
  const [p, q] = [a.toLowerCase(), b.toLowerCase()];
  return p < q ? -1 : p > q ? 1 : 0;
}

/**
 * Whether a condition holds for a value. eq, ne, contains and startswith ignore case; lt and gt
 * compare numbers as numbers, else text. With several texts (a multi-option), eq, lt, gt, contains
 * and startswith hold when any does, ne when none equals.
 */
export function testCondition(operator: ConditionOperator, expected: string, value: { texts: string[]; isEmpty: boolean; isSigned: boolean }): boolean {
  const wanted = expected.trim().toLowerCase();
  const texts = value.isEmpty ? [] : value.texts.map((text) => text.trim());
  switch (operator) {
    case "empty":
      return value.isEmpty;
    case "notempty":
      return !value.isEmpty;
    case "signed":
      return value.isSigned;
    case "notsigned":
      return !value.isSigned;
    case "eq":
      return texts.some((text) => text.toLowerCase() === wanted);
    case "ne":
      return !texts.some((text) => text.toLowerCase() === wanted);
    case "lt":
      return texts.some((text) => compareTexts(text, expected) < 0);
    case "gt":
      return texts.some((text) => compareTexts(text, expected) > 0);
    case "contains":
      return texts.some((text) => text.toLowerCase().includes(wanted));
    case "startswith":
      return texts.some((text) => text.toLowerCase().startsWith(wanted));
  }
}

/**
 * Which elements' conditions hold, following chains (A depends on B, which depends on C). A hidden,
 * unknown or deleted controlling element counts as empty; a cycle hides every element in it.
 */
export function conditionChecker(scope: ConditionScope): (element: FormElement) => boolean {
  const byId = new Map<string, { element: FormElement; values: ValuesById }>();
  for (const element of scope.cartElements ?? []) byId.set(element.id, { element, values: scope.cartValues ?? {} });
  for (const element of scope.elements) byId.set(element.id, { element, values: scope.values });
  const memo = new Map<string, boolean>();

  // Each element names one controller, so following the names either ends or loops back.
  const isInCycle = (element: FormElement): boolean => {
    let next = element.condition?.element;
    for (let steps = 0; next !== undefined && steps <= byId.size; steps++) {
      if (next === element.id) return true;
      next = byId.get(next)?.element.condition?.element;
    }
    return false;
  };

  const isShown = (element: FormElement): boolean => {
    const condition = element.condition;
    if (!condition) return true;
    const known = memo.get(element.id);
    if (known !== undefined) return known;
    let shown = false;
    if (!isInCycle(element)) {
      const controlling = byId.get(condition.element);
      const live = controlling && isShown(controlling.element) ? controlling : undefined;
      const stored = live?.values[condition.element]?.v ?? null;
      const module = live ? FIELD_TYPE_MODULES[live.element.type] : undefined;
      shown = testCondition(condition.operator, condition.value, {
        texts: live ? conditionTexts(live.element, stored) : [],
        isEmpty: !module || stored === null || module.isEmpty(stored),
        isSigned: stored === true,
      });
    }
    memo.set(element.id, shown);
    return shown;
  };
  return isShown;
}

/** The elements this viewer sees with these values, in the given order. */
export function visibleElements(
  elements: readonly FormElement[],
  values: ValuesById,
  options: Viewer & { cartElements?: readonly FormElement[]; cartValues?: ValuesById },
): FormElement[] {
  const isShown = conditionChecker({ elements, values, cartElements: options.cartElements, cartValues: options.cartValues });
  return elements.filter((element) => isAccessible(element, options) && isShown(element));
}
