import { fail, firstText, ok, priceAt, type FieldTypeModule } from "./field-type";
import { FORM_MESSAGES } from "./messages";
import type { FormElement, ImageLogic } from "./model";

/** Image uploader: the file is uploaded first; the form posts the storage key it was given. */

// Keys are ours ("uploads/<uuid>.jpg"); anything else, or a path climbing out with "..", is refused.
const UPLOAD_KEY = /^[A-Za-z0-9_-][A-Za-z0-9_./-]{0,511}$/;

/** What the upload is for (config.logic): a vaccination record or a headshot; null for a plain image. */
export function imageLogicOf(element: Pick<FormElement, "config">): ImageLogic | null {
  return element.config.logic ?? null;
}

export const imageField: FieldTypeModule<string> = {
  type: "image",
  isInput: true,
  legacyCodes: [],
  parse(_element, raw) {
    const key = firstText(raw);
    if (key === "") return ok(null);
    return UPLOAD_KEY.test(key) && !key.split("/").includes("..") ? ok(key) : fail(FORM_MESSAGES.invalidUpload);
  },
  price: (element, value, tier) => (value ? priceAt(element, tier) : 0),
  display: (_element, value) => value ?? "",
  isEmpty: (value) => value === null || value === "",
};
