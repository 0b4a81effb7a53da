import { checkboxField, waiverField, yesNoField } from "./booleans";
import { dateField, dobField } from "./dates";
import { discountField } from "./discount";
import { bannerField, headingField, separatorField, textBlockField } from "./display-only";
import { donationField } from "./donation";
import { emailField } from "./email";
import type { FieldTypeModule } from "./field-type";
import { genderField } from "./gender";
import { imageField } from "./image";
import { licenceField } from "./licence";
import { membershipField } from "./membership";
import type { FieldType } from "./model";
import { numberField } from "./number";
import { multiOptionField, optionField } from "./options";
import { phoneField } from "./phone";
import { countryField, provinceField } from "./places";
import { cityField, textField } from "./text";

/** Every field type's module, by type name and by legacy numeric code. */

export const FIELD_TYPE_MODULES: Readonly<Record<FieldType, FieldTypeModule<unknown>>> = {
  text: textField,
  number: numberField,
  checkbox: checkboxField,
  yesno: yesNoField,
  option: optionField,
  multioption: multiOptionField,
  country: countryField,
  province: provinceField,
  city: cityField,
  date: dateField,
  dob: dobField,
  email: emailField,
  phone: phoneField,
  gender: genderField,
  licence: licenceField,
  waiver: waiverField,
  donation: donationField,
  discount: discountField,
  image: imageField,
  membership: membershipField,
  heading: headingField,
  textblock: textBlockField,
  separator: separatorField,
  banner: bannerField,
};

const BY_LEGACY_CODE = new Map<number, FieldTypeModule<unknown>>(
  Object.values(FIELD_TYPE_MODULES).flatMap((module) => module.legacyCodes.map((code) => [code, module] as const)),
);

export function fieldTypeOf(type: FieldType): FieldTypeModule<unknown> {
  return FIELD_TYPE_MODULES[type];
}

/** Only the codes the spec names are known (section 3); any other is undefined. */
export function fieldTypeFromLegacyCode(code: number): FieldTypeModule<unknown> | undefined {
  return BY_LEGACY_CODE.get(code);
}
