import { describe, expect, it } from "vitest";
import { MEMBERSHIP_REQUIRED_PERSON_FIELDS, membershipField } from "./membership";
import { makeElement } from "./test-elements";

const panel = makeElement("membership", {
  price_1: 1000,
  member_class: "general",
  options_list: [
    { id: "race", display: "Racing", member_class: "racing", price_1: 5000, price_2: 6000 },
    { id: "bunny", display: "[en]Bunny Rabbit[fr]Lapin", member_class: "SDP_bunnyrabbit", price_1: 2000 },
    { id: "plain", display: "Supporter" },
  ],
});

describe("membershipField", () => {
  it("records the option, its member class and the division's fees at the tier", () => {
    expect(membershipField.parse(panel, "race", { lang: "en", tier: 2 })).toEqual({
      ok: true,
      value: { option: "race", member_type: "racing", division_fees: 6000 },
    });
    expect(membershipField.parse(panel, "plain", { lang: "en" })).toEqual({ ok: true, value: { option: "plain", member_type: "general", division_fees: 0 } });
    expect(membershipField.parse(panel, "gold", { lang: "en" })).toEqual({ ok: false, error: "No such option" });
    expect(membershipField.parse(panel, "", { lang: "en" })).toEqual({ ok: true, value: null });
  });

  it("prices as an option field", () => {
    const value = { option: "race", member_type: "racing" as const, division_fees: 5000 };
    expect(membershipField.price(panel, value, 1)).toBe(6000);
    expect(membershipField.price(panel, value, 2)).toBe(7000);
    expect(membershipField.price(panel, null, 2)).toBe(0);
  });

  it("displays the option label", () => {
    expect(membershipField.display(panel, { option: "bunny", member_type: "SDP_bunnyrabbit", division_fees: 2000 }, "fr")).toBe("Lapin");
  });

  it("names the person fields a membership needs", () => {
    expect(MEMBERSHIP_REQUIRED_PERSON_FIELDS).toEqual(["first_name", "last_name", "birth_date", "gender", "street_address", "city", "province", "postal_code"]);
  });
});
