import { labelIn, type Lang } from "./bilingual";
import { ok, type FieldTypeModule } from "./field-type";
import type { FieldType, FormElement } from "./model";

/** Heading, text block, separator and banner: shown on the form, never inputs, never priced. */

function displayOnly(type: FieldType): FieldTypeModule<null> {
  return {
    type,
    isInput: false,
    legacyCodes: [],
    parse: () => ok(null),
    price: () => 0,
    display: () => "",
    isEmpty: () => true,
  };
}

export const headingField = displayOnly("heading");
export const textBlockField = displayOnly("textblock");
export const separatorField = displayOnly("separator");
export const bannerField = displayOnly("banner");

/** What a display block shows: its config.text (the image URL for a banner), else the caption. */
export function blockTextOf(element: FormElement, lang: Lang): string {
  return labelIn(element.config.text ?? element.caption, lang);
}
