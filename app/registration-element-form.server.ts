/**
 * The element editor's form: an element as text inputs (dollars, not cents) and back. Inputs are named by
 * the element's own paths ("price_1", "options_list.0.display", "config.discounts_list.1.amt",
 * "condition.element"), so an error from core's schema or from saveElement lands beside its input.
 */
import { formatBilingual, splitLabel, hasLanguageTags } from "../core/forms/bilingual";
import type { DiscountEntry, ElementConfig, FieldType, FormElement, FormOption } from "../core/forms/model";
import { FIELD_TYPE_MODULES } from "../core/forms/registry";
import { formatMoney, parseMoney } from "../core/money/money";
import type { DiscountDraft, EditorSections, ElementDraft, OptionDraft } from "./components/form-builder-choices";

export const ENTER_AMOUNT = "Enter an amount like 25.00";
const ENTER_WHOLE = "Enter a whole number (0 or more)";
const ENTER_NUMBER = "Enter a number";
const ENTER_PERCENT = "Enter a percentage from 0 to 100";

export function editorSectionsOf(type: FieldType): EditorSections {
  const input = FIELD_TYPE_MODULES[type].isInput;
  const options = type === "option" || type === "multioption" || type === "membership";
  return {
    input,
    pricing: input && type !== "discount",
    options,
    displayType: type === "option",
    memberClass: type === "membership",
    discounts: type === "discount",
    optin: type === "email",
    unspecified: type === "gender",
    minFee: type === "donation",
    waiver: type === "waiver",
    licence: type === "licence",
    image: type === "image",
    membership: type === "membership",
    number: type === "number",
    validation: type === "text" || type === "number",
    text: type === "heading" || type === "textblock" || type === "banner",
  };
}

const money = (cents: number | null | undefined) => (cents == null ? "" : formatMoney(cents));
const numberText = (n: number | null | undefined) => (n == null ? "" : String(n));

/** The caption's inputs: one when the form is English only, English and French parts when bilingual. */
function captionParts(caption: string, bilingual: boolean): { caption: string; caption_fr: string } {
  if (!bilingual || !hasLanguageTags(caption)) return { caption, caption_fr: "" };
  const parts = splitLabel(caption);
  return { caption: parts.en ?? parts.untagged, caption_fr: parts.fr ?? "" };
}

export function blankOption(): OptionDraft {
  return {
    id: crypto.randomUUID(),
    display: "",
    display_fr: "",
    value: "",
    limit: "",
    price_1: "",
    price_2: "",
    price_3: "",
    is_hidden: false,
    member_class: "",
    min_age: "",
    max_age: "",
    is_male: false,
    is_female: false,
    is_other: false,
    is_fee: false,
  };
}

export function blankDiscount(): DiscountDraft {
  return { code: "", type: "deduct_amount", amt: "", elts_list: [], description: "", qty: "" };
}

export function draftOf(element: FormElement, bilingual: boolean): ElementDraft {
  const config = element.config;
  return {
    ...captionParts(element.caption, bilingual),
    title: element.title ?? "",
    column_header: element.column_header ?? "",
    logic_key: element.logic_key ?? "",
    member_class: element.member_class ?? "",
    price_1: money(element.price_1),
    price_2: money(element.price_2),
    price_3: money(element.price_3),
    is_taxable: element.is_taxable,
    is_mandatory: element.is_mandatory,
    is_admin_only: element.is_admin_only,
    is_kiosk_mode: element.is_kiosk_mode,
    is_admin_mandatory: element.is_admin_mandatory,
    is_edit_forbidden: element.is_edit_forbidden,
    is_fee: element.is_fee,
    all_discount: element.all_discount,
    quantity_limit: numberText(element.quantity_limit),
    condition_element: element.condition?.element ?? "",
    condition_operator: element.condition?.operator ?? "eq",
    condition_value: element.condition?.value ?? "",
    display_type: element.display_type ?? "radio",
    options: element.options_list.map((o) => ({
      id: o.id,
      display: o.display,
      display_fr: o.display_fr ?? "",
      value: o.value ?? "",
      limit: numberText(o.limit),
      price_1: money(o.price_1),
      price_2: money(o.price_2),
      price_3: money(o.price_3),
      is_hidden: o.is_hidden ?? false,
      member_class: o.member_class ?? "",
      min_age: numberText(o.min_age),
      max_age: numberText(o.max_age),
      is_male: o.is_male ?? false,
      is_female: o.is_female ?? false,
      is_other: o.is_other ?? false,
      is_fee: o.is_fee ?? false,
    })),
    discounts: (config.discounts_list ?? []).map((d) => ({
      code: d.code,
      type: d.type,
      amt: d.type === "deduct_percent" ? String(d.amt) : money(d.amt),
      elts_list: [...d.elts_list],
      description: d.description ?? "",
      qty: numberText(d.qty),
    })),
    is_disable_optin: config.is_disable_optin ?? false,
    is_show_unspecified: config.is_show_unspecified ?? false,
    min_fee: money(config.min_fee),
    waiver_text: config.waiver_text ?? "",
    is_insidetrack: config.is_insidetrack ?? false,
    licence_kind: config.licence_kind ?? "",
    logic: config.logic ?? "",
    is_fees_extra: config.is_fees_extra ?? false,
    family_cap: money(config.family_cap),
    min: numberText(config.min),
    max: numberText(config.max),
    text: config.text ?? "",
    validation_system_id: config.validation_system_id ?? "",
    division_id: config.division_id ?? "",
  };
}

// ---------------------------------------------------------------------------------------------------------
// Reading a posted editor

/** Every posted text by name; repeated names (a checklist) keep every value. */
export async function readPosted(request: Request): Promise<Map<string, string[]>> {
  const posted = new Map<string, string[]>();
  for (const [key, value] of await request.formData()) if (typeof value === "string") posted.set(key, [...(posted.get(key) ?? []), value]);
  return posted;
}

/** The editor's opening time as posted (a whole number of milliseconds), or null when absent or not one. */
export function openedAtOf(posted: Map<string, string[]>): number | null {
  const text = posted.get("opened_at")?.[0] ?? "";
  return /^\d{1,15}$/.test(text) ? Number(text) : null;
}

/** The rows a list posted, by the index in their names, in order. */
function rowIndexes(posted: Map<string, string[]>, pattern: RegExp): number[] {
  const indexes = new Set<number>();
  for (const key of posted.keys()) {
    const match = pattern.exec(key);
    if (match) indexes.add(Number(match[1]));
  }
  return [...indexes].sort((a, b) => a - b);
}

export function readDraft(posted: Map<string, string[]>): ElementDraft {
  const text = (name: string) => posted.get(name)?.[0] ?? "";
  const box = (name: string) => posted.get(name)?.[0] === "on";
  const options = rowIndexes(posted, /^options_list\.(\d+)\.id$/).map((i) => {
    const p = `options_list.${i}.`;
    return {
      id: text(`${p}id`),
      display: text(`${p}display`),
      display_fr: text(`${p}display_fr`),
      value: text(`${p}value`),
      limit: text(`${p}limit`),
      price_1: text(`${p}price_1`),
      price_2: text(`${p}price_2`),
      price_3: text(`${p}price_3`),
      is_hidden: box(`${p}is_hidden`),
      member_class: text(`${p}member_class`),
      min_age: text(`${p}min_age`),
      max_age: text(`${p}max_age`),
      is_male: box(`${p}is_male`),
      is_female: box(`${p}is_female`),
      is_other: box(`${p}is_other`),
      is_fee: box(`${p}is_fee`),
    };
  });
  const discounts = rowIndexes(posted, /^config\.discounts_list\.(\d+)\.code$/).map((i) => {
    const p = `config.discounts_list.${i}.`;
    return {
      code: text(`${p}code`),
      type: text(`${p}type`),
      amt: text(`${p}amt`),
      elts_list: posted.get(`${p}elts_list`) ?? [],
      description: text(`${p}description`),
      qty: text(`${p}qty`),
    };
  });
  return {
    caption: text("caption"),
    caption_fr: text("caption_fr"),
    title: text("title"),
    column_header: text("column_header"),
    logic_key: text("logic_key"),
    member_class: text("member_class"),
    price_1: text("price_1"),
    price_2: text("price_2"),
    price_3: text("price_3"),
    is_taxable: box("is_taxable"),
    is_mandatory: box("is_mandatory"),
    is_admin_only: box("is_admin_only"),
    is_kiosk_mode: box("is_kiosk_mode"),
    is_admin_mandatory: box("is_admin_mandatory"),
    is_edit_forbidden: box("is_edit_forbidden"),
    is_fee: box("is_fee"),
    all_discount: box("all_discount"),
    quantity_limit: text("quantity_limit"),
    condition_element: text("condition.element"),
    condition_operator: text("condition.operator") || "eq",
    condition_value: text("condition.value"),
    display_type: text("display_type") || "radio",
    options,
    discounts,
    is_disable_optin: box("config.is_disable_optin"),
    is_show_unspecified: box("config.is_show_unspecified"),
    min_fee: text("config.min_fee"),
    waiver_text: text("config.waiver_text"),
    is_insidetrack: box("config.is_insidetrack"),
    licence_kind: text("config.licence_kind"),
    logic: text("config.logic"),
    is_fees_extra: box("config.is_fees_extra"),
    family_cap: text("config.family_cap"),
    min: text("config.min"),
    max: text("config.max"),
    text: text("config.text"),
    validation_system_id: text("config.validation_system_id"),
    division_id: text("config.division_id"),
  };
}

// ---------------------------------------------------------------------------------------------------------
// From a draft to an element

/** Collects the errors of one conversion, keyed by input name. */
class Reader {
  readonly errors: Record<string, string> = {};

  /** Dollars as cents; blank is null. */
  money(name: string, text: string): number | null {
    if (text.trim() === "") return null;
    const cents = parseMoney(text);
    if (cents === null || cents < 0) this.errors[name] ??= ENTER_AMOUNT;
    return cents !== null && cents >= 0 ? cents : null;
  }

  whole(name: string, text: string): number | null {
    if (text.trim() === "") return null;
    if (!/^\d+$/.test(text.trim())) this.errors[name] ??= ENTER_WHOLE;
    return /^\d+$/.test(text.trim()) ? Number(text.trim()) : null;
  }

  decimal(name: string, text: string): number | null {
    if (text.trim() === "") return null;
    const value = Number(text.trim());
    if (!Number.isFinite(value)) this.errors[name] ??= ENTER_NUMBER;
    return Number.isFinite(value) ? value : null;
  }

  percent(name: string, text: string): number {
    const value = Number(text.trim().replace(/%$/, ""));
    if (text.trim() === "" || !Number.isFinite(value) || value < 0 || value > 100) this.errors[name] ??= ENTER_PERCENT;
    return Number.isFinite(value) ? value : 0;
  }

  need(name: string, ok: boolean, message: string) {
    if (!ok) this.errors[name] ??= message;
  }
}

function optionOf(draft: OptionDraft, index: number, current: FormOption | undefined, sections: EditorSections, bilingual: boolean, read: Reader): FormOption {
  const p = `options_list.${index}.`;
  read.need(`${p}display`, draft.display.trim() !== "", "Enter what registrants see");
  const option: FormOption = { ...current, id: draft.id, display: draft.display.trim() };
  const value = draft.value.trim();
  if (value) option.value = value;
  else delete option.value;
  if (bilingual) {
    if (draft.display_fr.trim()) option.display_fr = draft.display_fr.trim();
    else delete option.display_fr;
  }
  option.limit = read.whole(`${p}limit`, draft.limit);
  option.price_1 = read.money(`${p}price_1`, draft.price_1);
  option.price_2 = read.money(`${p}price_2`, draft.price_2);
  option.price_3 = read.money(`${p}price_3`, draft.price_3);
  option.is_hidden = draft.is_hidden;
  option.min_age = read.whole(`${p}min_age`, draft.min_age);
  option.max_age = read.whole(`${p}max_age`, draft.max_age);
  read.need(
    `${p}max_age`,
    option.min_age == null || option.max_age == null || option.max_age >= option.min_age,
    "The oldest age must be at least the youngest",
  );
  option.is_male = draft.is_male;
  option.is_female = draft.is_female;
  option.is_other = draft.is_other;
  option.is_fee = draft.is_fee;
  if (sections.memberClass && draft.member_class) option.member_class = draft.member_class as FormOption["member_class"];
  else if (sections.memberClass) delete option.member_class;
  return option;
}

function discountOf(draft: DiscountDraft, index: number, read: Reader): DiscountEntry {
  const p = `config.discounts_list.${index}.`;
  read.need(`${p}code`, draft.code.trim() !== "", "Enter a code");
  const type = draft.type as DiscountEntry["type"];
  const amt = type === "deduct_percent" ? read.percent(`${p}amt`, draft.amt) : read.money(`${p}amt`, draft.amt);
  if (type !== "deduct_percent") read.need(`${p}amt`, draft.amt.trim() !== "", ENTER_AMOUNT);
  const entry: DiscountEntry = {
    code: draft.code.trim(),
    type,
    amt: amt ?? 0,
    elts_list: [...new Set(draft.elts_list)],
    qty: read.whole(`${p}qty`, draft.qty),
  };
  if (draft.description.trim()) entry.description = draft.description.trim();
  return entry;
}

/**
 * The element a posted draft describes, on top of the stored one: only the parts the editor shows for its
 * type are read (the rest is kept), and options keep what the editor does not show.
 * Checks of shape and reference are saveElement's; this reads text and says what could not be read.
 */
export function elementOfDraft(
  draft: ElementDraft,
  current: FormElement,
  bilingual: boolean,
): { ok: true; element: FormElement } | { ok: false; errors: Record<string, string> } {
  const sections = editorSectionsOf(current.type);
  const read = new Reader();
  const caption = draft.caption.trim();
  const element: FormElement = {
    ...current,
    caption: bilingual ? formatBilingual(caption, draft.caption_fr.trim() || null) : caption,
    title: draft.title.trim() || null,
    is_admin_only: draft.is_admin_only,
    is_kiosk_mode: draft.is_kiosk_mode,
    condition: draft.condition_element
      ? {
          element: draft.condition_element,
          operator: draft.condition_operator as NonNullable<FormElement["condition"]>["operator"],
          value: draft.condition_value.trim(),
        }
      : null,
    config: { ...current.config },
  };
  if (sections.input) {
    Object.assign(element, {
      column_header: draft.column_header.trim() || null,
      logic_key: draft.logic_key.trim() || null,
      is_mandatory: draft.is_mandatory,
      is_admin_mandatory: draft.is_admin_mandatory,
      is_edit_forbidden: draft.is_edit_forbidden,
    });
  }
  if (sections.pricing) {
    element.price_1 = read.money("price_1", draft.price_1);
    element.price_2 = read.money("price_2", draft.price_2);
    element.price_3 = read.money("price_3", draft.price_3);
    element.is_taxable = draft.is_taxable;
    element.is_fee = draft.is_fee;
    element.quantity_limit = read.whole("quantity_limit", draft.quantity_limit);
  }
  if (sections.options) {
    const byId = new Map(current.options_list.map((o) => [o.id, o]));
    element.options_list = draft.options.map((o, i) => optionOf(o, i, byId.get(o.id), sections, bilingual, read));
  }
  if (sections.memberClass) element.member_class = draft.member_class || null;
  if (sections.displayType) element.display_type = draft.display_type === "select" ? "select" : "radio";
  if (sections.discounts) {
    element.config.discounts_list = draft.discounts.map((d, i) => discountOf(d, i, read));
    element.all_discount = draft.all_discount;
  }
  element.config = { ...element.config, ...typeConfigOf(draft, sections, read) };
  return Object.keys(read.errors).length > 0 ? { ok: false, errors: read.errors } : { ok: true, element };
}

/** The per-type settings the editor shows, read from the draft. */
function typeConfigOf(draft: ElementDraft, s: EditorSections, read: Reader): ElementConfig {
  const config: ElementConfig = {};
  if (s.optin) config.is_disable_optin = draft.is_disable_optin;
  if (s.unspecified) config.is_show_unspecified = draft.is_show_unspecified;
  if (s.minFee) config.min_fee = read.money("config.min_fee", draft.min_fee);
  if (s.waiver) Object.assign(config, { waiver_text: draft.waiver_text.trim() || null, is_insidetrack: draft.is_insidetrack });
  if (s.licence && draft.licence_kind) config.licence_kind = draft.licence_kind as ElementConfig["licence_kind"];
  if (s.image && draft.logic) config.logic = draft.logic as ElementConfig["logic"];
  if (s.membership)
    Object.assign(config, {
      is_fees_extra: draft.is_fees_extra,
      family_cap: read.money("config.family_cap", draft.family_cap),
      division_id: draft.division_id || null,
    });
  if (s.number) Object.assign(config, { min: read.decimal("config.min", draft.min), max: read.decimal("config.max", draft.max) });
  if (s.text) config.text = draft.text.trim() || null;
  if (s.validation) config.validation_system_id = draft.validation_system_id || null;
  return config;
}

/** Which button sent the editor: save, add a row, or remove row N of a list. */
export function editorIntentOf(posted: Map<string, string[]>): {
  kind: "save" | "add-option" | "add-discount" | "remove-option" | "remove-discount" | "unknown";
  index: number;
} {
  const intent = posted.get("intent")?.[0] ?? "";
  const match = /^(remove-option|remove-discount):(\d+)$/.exec(intent);
  if (match) return { kind: match[1] as "remove-option" | "remove-discount", index: Number(match[2]) };
  if (intent === "save" || intent === "add-option" || intent === "add-discount") return { kind: intent, index: -1 };
  return { kind: "unknown", index: -1 };
}
