import { fail, ok, priceAt, type FieldTypeModule } from "./field-type";
import { MEMBER_CLASSES, type Cents, type FormElement, type MemberClass } from "./model";
import { optionLabel, parseSingleOption } from "./options";

/**
 * Membership panel (section 3): an option field whose options each sell a class of membership. Its
 * value records the class and the division's share of the price, for remittance to the division.
 */

export interface MembershipValue {
  /** The chosen option's id. */
  option: string;
  member_type: MemberClass;
  /** The chosen option's price at the tier, the part paid on to the division. */
  division_fees: Cents;
}

/** The panel asks for these person fields; a membership cannot be issued without them. */
export const MEMBERSHIP_REQUIRED_PERSON_FIELDS = ["first_name", "last_name", "birth_date", "gender", "street_address", "city", "province", "postal_code"] as const;

/** Asked as yes/no, never required. */
export const MEMBERSHIP_OPTIONAL_PERSON_FIELDS = ["disability"] as const;

const isMemberClass = (text: string | null | undefined): text is MemberClass => (MEMBER_CLASSES as readonly string[]).includes(text ?? "");

/** The option's class, else the element's, else general. */
function memberClassOf(element: FormElement, optionId: string): MemberClass {
  const option = element.options_list.find((candidate) => candidate.id === optionId);
  if (option?.member_class) return option.member_class;
  return isMemberClass(element.member_class) ? element.member_class : "general";
}

export const membershipField: FieldTypeModule<MembershipValue> = {
  type: "membership",
  isInput: true,
  legacyCodes: [42],
  parse(element, raw, ctx) {
    const chosen = parseSingleOption(element, raw);
    if (!chosen.ok) return fail(chosen.error);
    if (chosen.value === null) return ok(null);
    const option = element.options_list.find((candidate) => candidate.id === chosen.value);
    return ok({ option: chosen.value, member_type: memberClassOf(element, chosen.value), division_fees: option ? priceAt(option, ctx.tier ?? 1) : 0 });
  },
  /**
   * As every option field: the element's price plus the option's. is_fees_extra and family_cap act on
   * the whole cart (fees on top, the family cap) and are applied by cart pricing, not here.
   */
  price(element, value, tier) {
    if (value === null) return 0;
    const option = element.options_list.find((candidate) => candidate.id === value.option);
    return priceAt(element, tier) + (option ? priceAt(option, tier) : 0);
  },
  display(element, value, lang) {
    const option = value && element.options_list.find((candidate) => candidate.id === value.option);
    return option ? optionLabel(option, lang) : "";
  },
  isEmpty: (value) => value === null,
};
