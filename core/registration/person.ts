/**
 * What a registration knows about one person from their answers: their age on the age calculation date
 * (from the date-of-birth field) and their gender, which decide the options offered to them.
 */
import type { OptionChooser } from "../forms/options";
import type { FormElement, StoredValue } from "../forms/model";
import { ageOn } from "./age";

export function personChooser(
  elements: readonly FormElement[],
  values: Readonly<Record<string, StoredValue | undefined>>,
  ageDate: string,
  isAdmin: boolean,
): OptionChooser {
  const dob = elements.find((e) => e.type === "dob");
  const gender = elements.find((e) => e.type === "gender");
  const birth = dob ? values[dob.id]?.v : undefined;
  const given = gender ? values[gender.id]?.v : undefined;
  return {
    isAdmin,
    age: typeof birth === "string" ? ageOn(birth, ageDate) : null,
    gender: given === "M" || given === "F" || given === "O" ? given : null,
  };
}
