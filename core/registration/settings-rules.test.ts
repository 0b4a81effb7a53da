import { describe, expect, it } from "vitest";
import { makeElement } from "../forms/test-elements";
import { nameFieldErrors, SETTINGS_MESSAGES, timeOrderErrors } from "./settings-rules";

const none = { open_time: null, close_time: null, raise_price_1_time: null, raise_price_2_time: null };

describe("a form's times", () => {
  it("closes after it opens", () => {
    expect(timeOrderErrors({ ...none, open_time: 2_000, close_time: 2_000 })).toEqual({ close_time: SETTINGS_MESSAGES.closeAfterOpen });
    expect(timeOrderErrors({ ...none, open_time: 2_000, close_time: 1_000 })).toEqual({ close_time: "The closing time must be after the opening time" });
    expect(timeOrderErrors({ ...none, open_time: 1_000, close_time: 2_000 })).toEqual({});
    expect(timeOrderErrors({ ...none, close_time: 2_000 })).toEqual({});
  });

  it("raises prices a second time only after a first", () => {
    expect(timeOrderErrors({ ...none, raise_price_2_time: 5_000 })).toEqual({ raise_price_1_time: "Set the first price rise before the second" });
    expect(timeOrderErrors({ ...none, raise_price_1_time: 5_000, raise_price_2_time: 5_000 })).toEqual({
      raise_price_2_time: "The second price rise must be after the first",
    });
    expect(timeOrderErrors({ ...none, raise_price_1_time: 4_000, raise_price_2_time: 5_000 })).toEqual({});
  });
});

describe("a form's name fields", () => {
  const elements = [makeElement("text", { id: "first" }), makeElement("email", { id: "mail" })];
  it("must be text fields of this form", () => {
    expect(nameFieldErrors({ first_name_field_id: "first", last_name_field_id: null }, elements)).toEqual({});
    expect(nameFieldErrors({ first_name_field_id: "mail", last_name_field_id: "gone" }, elements)).toEqual({
      first_name_field_id: "Choose a text field of this form",
      last_name_field_id: "Choose a text field of this form",
    });
  });
});
