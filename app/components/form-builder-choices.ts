/**
 * Labels and shapes the form builder's pages share between server and browser. Only types come from
 * core/forms/model, so the builder's client code does not carry zod; the Record types make the compiler
 * insist on a label for every field type, operator and kind that core defines.
 */
import type { ConditionOperator, DiscountType, FieldType, ImageLogic, LicenceKind, MemberClass } from "../../core/forms/model";
import type { Choice } from "./form-kit";

export const FIELD_TYPE_LABELS: Record<FieldType, string> = {
  text: "Text",
  number: "Number",
  checkbox: "Checkbox",
  yesno: "Yes / No",
  option: "Option (choose one)",
  multioption: "Multi-option (choose several)",
  country: "Country",
  province: "Province",
  city: "City",
  date: "Date",
  dob: "Date of birth",
  email: "Email",
  phone: "Phone number",
  gender: "Gender",
  licence: "Licence",
  waiver: "Waiver",
  donation: "Donation",
  discount: "Discount codes",
  image: "Image uploader",
  membership: "Membership panel",
  heading: "Heading",
  textblock: "Text block",
  separator: "Separator",
  banner: "Banner image",
};

export const OPERATOR_LABELS: Record<ConditionOperator, string> = {
  eq: "is",
  ne: "is not",
  lt: "is less than",
  gt: "is more than",
  contains: "contains",
  startswith: "starts with",
  empty: "is empty",
  notempty: "is filled in",
  signed: "is signed (waivers)",
  notsigned: "is not signed (waivers)",
};

export const DISCOUNT_TYPE_LABELS: Record<DiscountType, string> = {
  deduct_percent: "Take off a percentage",
  deduct_amount: "Take off an amount",
  pay_amount: "Pay this amount instead",
};

export const LICENCE_LABELS: Record<LicenceKind, string> = { ccc: "CCC (Cross Country Canada)", fis: "FIS", uci: "UCI", ussa: "USSA" };

export const IMAGE_LOGIC_LABELS: Record<ImageLogic, string> = { vaccine: "Vaccination record", headshot: "Headshot" };

export const MEMBER_CLASS_LABELS: Record<MemberClass, string> = {
  SDP_bunnyrabbit: "Bunny Rabbit (SDP)",
  SDP_jackrabbit: "Jackrabbit (SDP)",
  SDP_trackattack: "Track Attack (SDP)",
  racing: "Racing",
  coach: "Coach",
  official: "Official",
  nonmember: "Non-member",
  general: "General",
};

/** A label map as select choices, in the order core lists the keys. */
export function choicesOf<K extends string>(labels: Record<K, string>): Choice[] {
  return (Object.entries(labels) as [K, string][]).map(([value, label]) => ({ value, label }));
}

/** Which parts of the element editor a field type shows; the server reads back only these. */
export interface EditorSections {
  /** An input (not a heading, text block, separator or banner): mandatory flags, column header. */
  input: boolean;
  /** price_1..3, taxable, fee, quantity limit. */
  pricing: boolean;
  options: boolean;
  displayType: boolean;
  memberClass: boolean;
  discounts: boolean;
  optin: boolean;
  unspecified: boolean;
  minFee: boolean;
  waiver: boolean;
  licence: boolean;
  image: boolean;
  membership: boolean;
  number: boolean;
  /** text, number: a validation system the value must pass */
  validation: boolean;
  /** heading, text block, banner: their body (a banner's image URL). */
  text: boolean;
}

export interface OptionDraft {
  id: string;
  display: string;
  display_fr: string;
  value: string;
  limit: string;
  price_1: string;
  price_2: string;
  price_3: string;
  is_hidden: boolean;
  member_class: string;
  /** Who may choose it: ages on the form's age date, and genders (none ticked = everyone). */
  min_age: string;
  max_age: string;
  is_male: boolean;
  is_female: boolean;
  is_other: boolean;
  is_fee: boolean;
}

export interface DiscountDraft {
  code: string;
  type: string;
  amt: string;
  elts_list: string[];
  description: string;
  qty: string;
}

/** An element as the editor shows it: text as typed (dollars, not cents), so a refused form comes back as sent. */
export interface ElementDraft {
  caption: string;
  caption_fr: string;
  title: string;
  column_header: string;
  /** A stable key integrations and exports use for the field, such as first_name. */
  logic_key: string;
  /** A membership field's member class for options that set none. */
  member_class: string;
  price_1: string;
  price_2: string;
  price_3: string;
  is_taxable: boolean;
  is_mandatory: boolean;
  is_admin_only: boolean;
  is_kiosk_mode: boolean;
  is_admin_mandatory: boolean;
  is_edit_forbidden: boolean;
  is_fee: boolean;
  all_discount: boolean;
  quantity_limit: string;
  condition_element: string;
  condition_operator: string;
  condition_value: string;
  display_type: string;
  options: OptionDraft[];
  discounts: DiscountDraft[];
  is_disable_optin: boolean;
  is_show_unspecified: boolean;
  min_fee: string;
  waiver_text: string;
  is_insidetrack: boolean;
  licence_kind: string;
  logic: string;
  is_fees_extra: boolean;
  family_cap: string;
  min: string;
  max: string;
  text: string;
  validation_system_id: string;
  division_id: string;
}

/** The editor action's answer when it does not redirect: the draft to show again, and its errors by input name. */
export interface ElementReply {
  intent: string;
  draft: ElementDraft;
  errors: Record<string, string>;
  /** New on every reply, so the form remounts with the draft's values. */
  revision: string;
  /** Carried from the post, so adding a row keeps the editor's opening time (concurrent-edit check). */
  openedAt: number | null;
}
