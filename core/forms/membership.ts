import { fail, ok, priceAt, type FieldTypeModule } from "./field-type";
import { MEMBER_CLASSES, type Cents, type FormElement, type MemberClass } from "./model";
import { NAME_CAPTIONS } from "./name-fields";
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
export const MEMBERSHIP_REQUIRED_PERSON_FIELDS = [
  "first_name",
  "last_name",
  "birth_date",
  "gender",
  "street_address",
  "city",
  "province",
  "postal_code",
] as const;

type PersonField = (typeof MEMBERSHIP_REQUIRED_PERSON_FIELDS)[number];

/** How each required detail is recognised on a form: by field type, else by a text field's caption. */
const PERSON_FIELD_MATCHERS: Record<PersonField, { types: readonly FormElement["type"][]; caption?: RegExp; label: string }> = {
  first_name: { types: ["text"], caption: NAME_CAPTIONS.first, label: "first name" },
  last_name: { types: ["text"], caption: NAME_CAPTIONS.last, label: "last name" },
  birth_date: { types: ["dob"], label: "birth date" },
  gender: { types: ["gender"], label: "gender" },
  street_address: { types: ["text"], caption: /address|adresse/i, label: "street address" },
  city: { types: ["city"], caption: /city|ville/i, label: "city" },
  province: { types: ["province"], label: "province" },
  postal_code: { types: ["text"], caption: /postal|zip|code postal/i, label: "postal code" },
};

/**
 * The person details a chosen membership still lacks (section 3: the panel requires first name, last
 * name, birth date, gender, street address, city, province and postal code), as words for the message.
 * A detail counts as given when a field that asks for it has an answer.
 */
export function missingMemberDetails(elements: readonly FormElement[], answered: (elementId: string) => boolean): string[] {
  return MEMBERSHIP_REQUIRED_PERSON_FIELDS.filter((detail) => {
    const matcher = PERSON_FIELD_MATCHERS[detail];
    const asking = elements.filter((e) => matcher.types.includes(e.type) && (!matcher.caption || e.type !== "text" || matcher.caption.test(e.caption)));
    return !asking.some((e) => answered(e.id));
  }).map((detail) => PERSON_FIELD_MATCHERS[detail].label);
}

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
