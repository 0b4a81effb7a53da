import { describe, expect, it } from "vitest";
import { TIME_UNIT_RANGE } from "../time/parse";
import {
  customFieldKey,
  FIELD_BIB,
  FIELD_BOOLEAN,
  FIELD_DATE,
  FIELD_GENDER,
  FIELD_KEY_EMPTY,
  FIELD_NUMBER,
  FIELD_REQUIRED,
  FIELD_SECONDS,
  isReservedFieldKey,
  validateCustomFieldValue,
} from "./racer-fields";

describe("customFieldKey", () => {
  it("lowercases and removes non-word characters, spaces included", () => {
    expect(customFieldKey("Ski Club", "text", [])).toBe("skiclub");
    expect(customFieldKey("T-Shirt Size (adult)!", "option", [])).toBe("tshirtsizeadult");
    expect(customFieldKey("FIS_code 2", "text", [])).toBe("fis_code2");
  });

  it("drops accents rather than the accented letters", () => {
    expect(customFieldKey("Équipe Numéro", "text", [])).toBe("equipenumero");
  });

  it("prefixes is_ for a category", () => {
    expect(customFieldKey("U16 Girls", "category", [])).toBe("is_u16girls");
  });

  it("adds _2, _3, … until the key is free", () => {
    expect(customFieldKey("Shirt", "text", ["shirt"])).toBe("shirt_2");
    expect(customFieldKey("Shirt", "text", ["shirt", "shirt_2"])).toBe("shirt_3");
    expect(customFieldKey("Lap1", "text", ["lap1"])).toBe("lap1_2");
    expect(customFieldKey("Shirt", "text", ["SHIRT"])).toBe("shirt_2");
  });

  it("never returns a reserved racer field", () => {
    expect(customFieldKey("Bib", "number", [])).toBe("bib_2");
    expect(customFieldKey("First_Name", "text", [])).toBe("first_name_2");
    expect(customFieldKey("Club", "text", [])).toBe("club_2");
    expect(customFieldKey("stage_time_3", "time", [])).toBe("stage_time_3_2");
    expect(customFieldKey("First Name", "text", [])).toBe("firstname");
  });

  it("refuses a name with no letter or digit", () => {
    expect(customFieldKey(" -- ", "text", [])).toEqual({ error: FIELD_KEY_EMPTY });
    expect(customFieldKey("___", "text", [])).toEqual({ error: FIELD_KEY_EMPTY });
    expect(customFieldKey("Бег", "text", [])).toEqual({ error: FIELD_KEY_EMPTY });
  });
});

describe("isReservedFieldKey", () => {
  it("covers the Racer fields, including every stage N", () => {
    for (const key of ["uuid", "classname", "dnf_time", "status_text", "para_factor", "stage_time_12", "stage_bonus_1"])
      expect(isReservedFieldKey(key), key).toBe(true);
    expect(isReservedFieldKey("stage_time")).toBe(false);
    expect(isReservedFieldKey("skiclub")).toBe(false);
  });
});

describe("validateCustomFieldValue", () => {
  it("trims text and blanks to null, or Required when mandatory", () => {
    expect(validateCustomFieldValue({ type: "text" }, "  Nordic  ")).toBe("Nordic");
    expect(validateCustomFieldValue({ type: "text" }, "  ")).toBeNull();
    expect(validateCustomFieldValue({ type: "number" }, null)).toBeNull();
    expect(validateCustomFieldValue({ type: "text", isMandatory: true }, " ")).toEqual({ error: FIELD_REQUIRED });
  });

  it("reads numbers", () => {
    expect(validateCustomFieldValue({ type: "number" }, "12.5")).toBe(12.5);
    expect(validateCustomFieldValue({ type: "number" }, "-3")).toBe(-3);
    expect(validateCustomFieldValue({ type: "number" }, 7)).toBe(7);
    for (const bad of ["12a", "0x10", "1e3", "1,5"]) expect(validateCustomFieldValue({ type: "number" }, bad), bad).toEqual({ error: FIELD_NUMBER });
  });

  it("reads bibs as whole numbers from 0", () => {
    expect(validateCustomFieldValue({ type: "bib" }, "0042")).toBe(42);
    expect(validateCustomFieldValue({ type: "bib" }, "4.5")).toEqual({ error: FIELD_BIB });
    expect(validateCustomFieldValue({ type: "bib" }, "-1")).toEqual({ error: FIELD_BIB });
  });

  it("reads a time with parseRaceTime and seconds as a decimal, both to microseconds", () => {
    expect(validateCustomFieldValue({ type: "time" }, "1:02.5")).toBe(62_500_000);
    expect(validateCustomFieldValue({ type: "time" }, "1:75")).toEqual({ error: TIME_UNIT_RANGE });
    expect(validateCustomFieldValue({ type: "seconds" }, "90.25")).toBe(90_250_000);
    expect(validateCustomFieldValue({ type: "seconds" }, "-5")).toBe(-5_000_000);
    expect(validateCustomFieldValue({ type: "seconds" }, "1:30")).toEqual({ error: FIELD_SECONDS });
  });

  it("accepts only real calendar dates as YYYY-MM-DD", () => {
    expect(validateCustomFieldValue({ type: "date" }, "2024-02-29")).toBe("2024-02-29");
    expect(validateCustomFieldValue({ type: "date" }, "0050-01-31")).toBe("0050-01-31");
    for (const bad of ["2023-02-29", "2024-13-01", "2024-04-31", "2024-4-1", "01/02/2024"])
      expect(validateCustomFieldValue({ type: "date" }, bad), bad).toEqual({ error: FIELD_DATE });
  });

  it("normalises gender to M or F", () => {
    expect(validateCustomFieldValue({ type: "gender" }, "m")).toBe("M");
    expect(validateCustomFieldValue({ type: "gender" }, "Female")).toBe("F");
    expect(validateCustomFieldValue({ type: "gender" }, "X")).toEqual({ error: FIELD_GENDER });
  });

  it("reads yes/no types, blank as false", () => {
    expect(validateCustomFieldValue({ type: "boolean" }, "Yes")).toBe(true);
    expect(validateCustomFieldValue({ type: "checkbox" }, "0")).toBe(false);
    expect(validateCustomFieldValue({ type: "checkbox" }, "")).toBe(false);
    expect(validateCustomFieldValue({ type: "category" }, true)).toBe(true);
    expect(validateCustomFieldValue({ type: "boolean", isMandatory: true }, null)).toBe(false);
    expect(validateCustomFieldValue({ type: "boolean" }, "maybe")).toEqual({ error: FIELD_BOOLEAN });
  });

  it("accepts only one of the options, spelled as the option is", () => {
    const field = { type: "option" as const, options: ["Small", "Medium", "Large"] };
    expect(validateCustomFieldValue(field, " medium ")).toBe("Medium");
    expect(validateCustomFieldValue(field, "XL")).toEqual({ error: "Must be one of: Small, Medium, Large" });
  });
});
