/** Registration form elements (platform.md section 3, "Registration" and "Form-field types"). */

/** Money is integer cents everywhere in forms. */
export type Cents = number;

/** Three price tiers; the registration switches tier at raise_price_1_time and raise_price_2_time. */
export type Tier = 1 | 2 | 3;

export const MEMBER_CLASSES = ["SDP_bunnyrabbit", "SDP_jackrabbit", "SDP_trackattack", "racing", "coach", "official", "nonmember", "general"] as const;
export type MemberClass = (typeof MEMBER_CLASSES)[number];

export const FIELD_TYPES = [
  "text",
  "number",
  "checkbox",
  "yesno",
  "option",
  "multioption",
  "country",
  "province",
  "city",
  "date",
  "dob",
  "email",
  "phone",
  "gender",
  "licence",
  "waiver",
  "donation",
  "discount",
  "image",
  "membership",
  "heading",
  "textblock",
  "separator",
  "banner",
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const CONDITION_OPERATORS = ["eq", "ne", "lt", "gt", "contains", "startswith", "empty", "notempty", "signed", "notsigned"] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** Multi-option conditions were saved as numbers 1 to 6 (section 5), in this order. */
const LEGACY_OPERATORS: readonly ConditionOperator[] = ["eq", "ne", "lt", "gt", "contains", "startswith"];

/** The operator a legacy numeric code stands for, or undefined for anything but 1 to 6. */
export function operatorFromLegacy(code: number | string): ConditionOperator | undefined {
  const n = typeof code === "number" ? code : /^\s*\d+\s*$/.test(code) ? Number(code) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= LEGACY_OPERATORS.length ? LEGACY_OPERATORS[n - 1] : undefined;
}

export const LICENCE_KINDS = ["ccc", "fis", "uci", "ussa"] as const;
export type LicenceKind = (typeof LICENCE_KINDS)[number];

export const IMAGE_LOGICS = ["vaccine", "headshot"] as const;
export type ImageLogic = (typeof IMAGE_LOGICS)[number];

export const DISCOUNT_TYPES = ["deduct_percent", "pay_amount", "deduct_amount"] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

export interface DiscountEntry {
  code: string;
  type: DiscountType;
  /** Percent for deduct_percent, cents otherwise. */
  amt: number;
  /** Ids of the elements the discount applies to. */
  elts_list: string[];
  description?: string;
  /** How many times the code can be used; null or absent is unlimited. */
  qty?: number | null;
}

export interface FormOption {
  id: string;
  display: string;
  display_fr?: string;
  value?: string;
  /** How many can be sold; null or absent is unlimited. */
  limit?: number | null;
  price_1?: Cents | null;
  price_2?: Cents | null;
  price_3?: Cents | null;
  is_fee?: boolean;
  min_age?: number | null;
  max_age?: number | null;
  /** With any gender flag set, the option is offered only to the flagged genders. */
  is_male?: boolean;
  is_female?: boolean;
  is_other?: boolean;
  /** Not offered to registrants; admins can still choose it. */
  is_hidden?: boolean;
  member_class?: MemberClass;
}

/** Settings that only some types use; each key names the types that read it. */
export interface ElementConfig {
  /** discount */
  discounts_list?: DiscountEntry[];
  /** email: no promotional opt-in is offered, so none is recorded. */
  is_disable_optin?: boolean;
  /** gender */
  is_show_unspecified?: boolean;
  /** donation, cents */
  min_fee?: Cents | null;
  /** waiver, for one organisation */
  is_insidetrack?: boolean;
  /** waiver */
  waiver_text?: string | null;
  /** licence */
  licence_kind?: LicenceKind;
  /** image */
  logic?: ImageLogic;
  /** membership */
  is_fees_extra?: boolean;
  /** membership, cents: the most one cart pays for memberships */
  family_cap?: Cents | null;
  /** membership: the club's division it sells memberships of; none means the club's first division */
  division_id?: string | null;
  /** text, number: the club's validation system a value must pass (decision 0052) */
  validation_system_id?: string | null;
  /** number */
  min?: number | null;
  max?: number | null;
  /** heading, textblock, banner: the body; for a banner the image URL */
  text?: string | null;
}

export interface ElementCondition {
  /** Id of the controlling element, of the same individual or of the cart. */
  element: string;
  operator: ConditionOperator;
  value: string;
}

export interface FormElement {
  id: string;
  type: FieldType;
  caption: string;
  title?: string | null;
  column_header?: string | null;
  price_1?: Cents | null;
  price_2?: Cents | null;
  price_3?: Cents | null;
  is_taxable: boolean;
  is_mandatory: boolean;
  is_admin_only: boolean;
  is_kiosk_mode: boolean;
  is_admin_mandatory: boolean;
  is_edit_forbidden: boolean;
  condition?: ElementCondition | null;
  logic_key?: string | null;
  ordinal: number;
  quantity_limit?: number | null;
  all_discount: boolean;
  member_class?: string | null;
  is_fee: boolean;
  options_list: FormOption[];
  display_type?: string | null;
  config: ElementConfig;
}

/** A new element of a type: every flag off, no prices, no options, the settings that type starts with. */
export function newElement(id: string, type: FieldType, overrides: Partial<FormElement> = {}): FormElement {
  return {
    id,
    type,
    caption: "",
    is_taxable: false,
    is_mandatory: false,
    is_admin_only: false,
    is_kiosk_mode: false,
    is_admin_mandatory: false,
    is_edit_forbidden: false,
    condition: null,
    ordinal: 0,
    all_discount: false,
    is_fee: false,
    options_list: [],
    config: type === "discount" ? { discounts_list: [] } : {},
    ...overrides,
  };
}

/** Section 3: "A value is stored as an object with v (value) and p (price)". */
export interface StoredValue<V = unknown> {
  v: V;
  p: Cents;
}

/** Builder limits: generous for real forms, small enough that a posted form cannot bloat a row. */
export const FORM_LIMITS = {
  caption: 2000,
  text: 50_000,
  options: 500,
  discounts: 200,
  code: 64,
  id: 64,
  maxCents: 10_000_000,
} as const;
