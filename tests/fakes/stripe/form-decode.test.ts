// Bracket-notation decoding as the Stripe SDK and curl send it.
import { describe, expect, it } from "vitest";
import { FakeStripeError } from "./errors";
import { canonicalForm, decodeForm, formToObject, splitKey } from "./form-decode";
import { Params } from "./params";

describe("decodeForm", () => {
  it("nests bracketed keys and keeps list indices as keys", () => {
    const body = "line_items[0][price_data][unit_amount]=1500&line_items[0][quantity]=2&metadata[cart_id]=c%201&expand[]=a&expand[]=b";
    expect(formToObject(decodeForm(new URLSearchParams(body)))).toEqual({
      line_items: { "0": { price_data: { unit_amount: "1500" }, quantity: "2" } },
      metadata: { cart_id: "c 1" },
      expand: { "0": "a", "1": "b" },
    });
  });

  it("reads lists in index order and names nested params in errors", () => {
    const params = Params.root(decodeForm(new URLSearchParams("items[1][n]=b&items[0][n]=a&items[2][n]=x")));
    expect(params.list("items").map((item) => item.string("n"))).toEqual(["a", "b", "x"]);
    const bad = Params.root(decodeForm(new URLSearchParams("items[0][q]=two")));
    const error = (() => {
      try {
        bad.list("items")[0]?.integer("q");
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(FakeStripeError);
    expect((error as FakeStripeError).fields).toMatchObject({ param: "items[0][q]", code: "parameter_invalid_integer", message: "Invalid integer: two" });
  });

  it("refuses a key given both a value and children", () => {
    expect(() => decodeForm(new URLSearchParams("metadata=x&metadata[a]=b"))).toThrow(FakeStripeError);
  });

  it("keeps a malformed key whole and compares parameter sets regardless of order", () => {
    expect(splitKey("a[b")).toEqual(["a[b"]);
    expect(splitKey("a[b][0]")).toEqual(["a", "b", "0"]);
    expect(canonicalForm(new URLSearchParams("b=2&a[x]=1"))).toBe(canonicalForm(new URLSearchParams("a%5Bx%5D=1&b=2")));
  });
});
