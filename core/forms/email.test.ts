import { describe, expect, it } from "vitest";
import { EMAIL_OPTOUT, emailField, splitEmails } from "./email";
import { EN, makeElement } from "./test-elements";

const EMAIL_MESSAGE = "Email addresses should be in the format name@host. You can enter multiple addresses, separated by a space or comma.";
const email = makeElement("email");

describe("emailField", () => {
  it("splits on comma, semicolon, bar or space and joins with ', '", () => {
    expect(emailField.parse(email, "a@x.ca,b@y.com; c@z.org | D@Z.org  e@w.net", EN)).toEqual({
      ok: true,
      value: { addresses: "a@x.ca, b@y.com, c@z.org, d@z.org, e@w.net", optin: true },
    });
    expect(emailField.parse(email, "a@x.ca, A@X.CA", EN)).toEqual({ ok: true, value: { addresses: "a@x.ca", optin: true } });
    expect(emailField.parse(email, "  ", EN)).toEqual({ ok: true, value: null });
  });

  it("needs an at-sign in every token", () => {
    for (const text of ["ann", "a@x.ca bob", "a@x.ca, @y", "name@", "a@b@c", ",;|"]) {
      expect(emailField.parse(email, text, EN), text).toEqual({ ok: false, error: EMAIL_MESSAGE });
    }
    expect(splitEmails("a@x.ca b@y.ca")).toEqual(["a@x.ca", "b@y.ca"]);
  });

  it("opts in by default; an opt-out check or a disabled offer turns it off", () => {
    expect(emailField.parse(email, ["a@x.ca", EMAIL_OPTOUT], EN)).toEqual({ ok: true, value: { addresses: "a@x.ca", optin: false } });
    const noOffer = makeElement("email", { config: { is_disable_optin: true } });
    expect(emailField.parse(noOffer, "a@x.ca", EN)).toEqual({ ok: true, value: { addresses: "a@x.ca", optin: false } });
  });

  it("displays the addresses", () => {
    expect(emailField.display(email, { addresses: "a@x.ca, b@y.ca", optin: true }, "en")).toBe("a@x.ca, b@y.ca");
  });
});
