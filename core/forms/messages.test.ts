import { describe, expect, it } from "vitest";
import { FORM_MESSAGES } from "./messages";

describe("FORM_MESSAGES", () => {
  it("keeps the spec's wording, the date message's two spaces included", () => {
    expect(FORM_MESSAGES.invalidDate).toBe("Invalid Date.  Dates should be in the format YYYY-MM-DD");
    expect(FORM_MESSAGES.invalidEmail).toBe(
      "Email addresses should be in the format name@host. You can enter multiple addresses, separated by a space or comma.",
    );
    expect(FORM_MESSAGES.invalidPhone).toBe("Phone numbers should be in the format 123-456-7890");
    expect(FORM_MESSAGES.inputNotNumber).toBe("Input must be a number");
    expect(FORM_MESSAGES.valueNotNumber).toBe("The value must be a number");
    expect(FORM_MESSAGES.noSuchOption).toBe("No such option");
    expect(FORM_MESSAGES.invalidProvince(["AB", "BC"])).toBe("Invalid province. Possible options are: AB, BC");
  });

  it("words our own messages", () => {
    expect(FORM_MESSAGES.required).toBe("This field is required");
    expect(FORM_MESSAGES.soldOut).toBe("Sold out");
    expect(FORM_MESSAGES.minimumAmount(1000)).toBe("The minimum amount is $10.00");
    expect(FORM_MESSAGES.numberRange(1, 5)).toBe("The value must be between 1 and 5");
    expect(FORM_MESSAGES.numberRange(1, null)).toBe("The value must be at least 1");
    expect(FORM_MESSAGES.numberRange(undefined, 5)).toBe("The value must be at most 5");
    expect(FORM_MESSAGES.unknownDiscount(["A"])).toBe("Unknown discount code: A");
    expect(FORM_MESSAGES.unknownDiscount(["A", "B"])).toBe("Unknown discount codes: A, B");
  });
});
