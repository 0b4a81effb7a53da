import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { newElement, type FieldType, type FormElement } from "../forms/model";
import { fcParams } from "../testing/fast-check";
import {
  CHANGE_MESSAGES,
  changeRefusal,
  changedFields,
  isChangeableAfterCheckout,
  lockedFieldsAltered,
  lockedForChange,
  mayChange,
  parseTransferFee,
  pricingAfterChange,
} from "./person-changes";
import { priceFormCart } from "./price-form";

const el = (id: string, type: FieldType, overrides: Partial<FormElement> = {}) => newElement(id, type, overrides);

describe("what a registrant may change after checkout", () => {
  it("names, dates and unpriced choices, not prices, limits, money, files or what the organiser locked", () => {
    expect(isChangeableAfterCheckout(el("a", "text"))).toBe(true);
    expect(isChangeableAfterCheckout(el("b", "dob"))).toBe(true);
    expect(isChangeableAfterCheckout(el("c", "option", { options_list: [{ id: "m", display: "M" }] }))).toBe(true);
    expect(isChangeableAfterCheckout(el("d", "option", { options_list: [{ id: "10k", display: "10 km", price_1: 4000 }] }))).toBe(false);
    expect(isChangeableAfterCheckout(el("e", "option", { options_list: [{ id: "s", display: "S", limit: 5 }] }))).toBe(false);
    expect(isChangeableAfterCheckout(el("f", "checkbox", { price_1: 2000 }))).toBe(false);
    expect(isChangeableAfterCheckout(el("g", "text", { is_edit_forbidden: true }))).toBe(false);
    expect(isChangeableAfterCheckout(el("h", "text", { quantity_limit: 10 }))).toBe(false);
    expect(isChangeableAfterCheckout(el("i", "donation"))).toBe(false);
    expect(isChangeableAfterCheckout(el("j", "text", { is_admin_only: true }))).toBe(false);
    expect(isChangeableAfterCheckout(el("k", "heading"))).toBe(false);
  });

  it("locks every other field to its saved value when parsing a change; a transfer also locks what was paid for", () => {
    const elements = [el("a", "text"), el("d", "option", { options_list: [{ id: "10k", display: "10 km", price_1: 4000 }] }), el("x", "donation")];
    expect(lockedForChange(elements, { d: { v: "10k", p: 4000 } }).map((e) => e.is_edit_forbidden)).toEqual([false, false, true]);
    expect(lockedForChange(elements, { d: { v: "10k", p: 4000 } }, "transfer").map((e) => e.is_edit_forbidden)).toEqual([false, true, true]);
  });

  it("refuses exactly the changes that touch a locked field", () => {
    const elements = [el("name", "text"), el("dist", "option", { options_list: [{ id: "10k", display: "10 km", price_1: 4000 }] })];
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.constantFrom("10k", "5k", null), (before, after, dist) => {
        const old = { name: { v: before, p: 0 }, dist: { v: "10k", p: 4000 } };
        const next = { name: { v: after, p: 0 }, ...(dist ? { dist: { v: dist, p: 4000 } } : {}) };
        expect(lockedFieldsAltered(elements, old, next, "transfer")).toEqual(dist === "10k" ? [] : ["dist"]);
        expect(lockedFieldsAltered(elements, old, next, "edit")).toEqual([]);
        expect(changedFields(elements, old, next).includes("name")).toBe(before !== after);
      }),
      fcParams(),
    );
  });

  it("is open until the form closes; transfers only where the organiser offers them", () => {
    const now = Date.UTC(2027, 0, 10);
    expect(changeRefusal({ transferFee: null, closeTime: now + 1 }, "edit", now, "en")).toBeNull();
    expect(changeRefusal({ transferFee: null, closeTime: now + 1 }, "transfer", now, "en")).toBe(CHANGE_MESSAGES.en.noTransfers);
    expect(changeRefusal({ transferFee: 0, closeTime: now + 1 }, "transfer", now, "fr")).toBeNull();
    expect(changeRefusal({ transferFee: 0, closeTime: now - 1 }, "edit", now, "en")).toBe(
      "Changes to this registration are closed. Please contact the organiser.",
    );
  });
});

describe("the transfer setting", () => {
  it("is empty for no transfers, 0 for free ones, or a fee in dollars", () => {
    expect(parseTransferFee("")).toEqual({ ok: true, value: null });
    expect(parseTransferFee("0")).toEqual({ ok: true, value: 0 });
    expect(parseTransferFee("0.00")).toEqual({ ok: true, value: 0 });
    expect(parseTransferFee("10.00")).toEqual({ ok: true, value: 1000 });
    expect(parseTransferFee("-1")).toEqual({ ok: false, error: "Enter a fee such as 10.00, 0 for free transfers, or leave empty for none" });
    expect(parseTransferFee("ten").ok).toBe(false);
  });
});

describe("adding a priced item after checkout", () => {
  const toque = newElement("toque", "checkbox", { price_1: 2000, price_2: 2000, price_3: 2000, is_taxable: true });
  const dist = newElement("dist", "option", { is_taxable: true, options_list: [{ id: "10k", display: "10 km", price_1: 4000, price_2: 4000, price_3: 4000 }] });
  const shirt = newElement("shirt", "option", { options_list: [{ id: "m", display: "M", price_1: 1500, limit: 10 }] });
  const price = (elements: FormElement[], values: Record<string, { v: unknown; p: number }>, gst = 13) =>
    priceFormCart({
      elements,
      tier: 1,
      gstRatePercent: gst,
      clubTakesCards: true,
      isRemoved: false,
      cartValues: {},
      individuals: [{ id: "p", isRemoved: false, isComplete: true, isNew: false, values }],
      discountUses: {},
    });

  it("may add, change or remove a priced or limited answer in the registrant's own edit, never in a transfer (decision 0061)", () => {
    expect(mayChange(toque, {})).toBe(true);
    // A transfer gives the entry as it is: nothing is added with it.
    expect(mayChange(toque, {}, "transfer")).toBe(false);
    expect(lockedFieldsAltered([toque], {}, { toque: { v: true, p: 0 } }, "transfer")).toEqual(["toque"]);
    expect(mayChange(toque, { toque: { v: true, p: 2000 } })).toBe(true);
    expect(mayChange(dist, { dist: { v: "10k", p: 4000 } })).toBe(true);
    expect(mayChange(shirt, {})).toBe(true);
    expect(mayChange(shirt, {}, "transfer")).toBe(false);
    expect(mayChange(newElement("locked", "option", { is_edit_forbidden: true }), {})).toBe(false);
    expect(lockedFieldsAltered([toque, dist], { dist: { v: "10k", p: 4000 } }, { dist: { v: "10k", p: 4000 }, toque: { v: true, p: 0 } })).toEqual([]);
  });

  it("charges the item and its tax at today's price, and keeps every line already charged", () => {
    const old = { dist: { v: "10k", p: 4000 } };
    const before = price([dist, toque], old);
    const after = price([dist, toque], { ...old, toque: { v: true, p: 0 } });
    const charged = { ...before, gstRatePercent: 13 };
    const { pricing, amount } = pricingAfterChange(charged, before, after);
    expect(amount).toBe(2260);
    expect(pricing.total).toBe(before.total + 2260);
    expect(pricing.tax).toBe(before.tax + 260);
    expect(pricing.lines.slice(0, charged.lines.length)).toEqual(charged.lines);
    expect(pricing.lines.slice(charged.lines.length)).toEqual([{ type: "item", individualId: "p", elementId: "toque", code: null, amount: 2000 }]);
  });

  it("moves the totals by exactly what the added lines and the tax add up to", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 0, max: 20 }), (distPrice, toquePrice, gst) => {
        const d = { ...dist, options_list: [{ id: "10k", display: "10 km", price_1: distPrice }] };
        const t = { ...toque, price_1: toquePrice };
        const old = { dist: { v: "10k", p: distPrice } };
        const before = price([d, t], old, gst);
        const after = price([d, t], { ...old, toque: { v: true, p: 0 } }, gst);
        const { pricing, amount } = pricingAfterChange({ ...before, gstRatePercent: gst }, before, after);
        const added = pricing.lines.slice(before.lines.length).reduce((sum, l) => sum + l.amount, 0);
        expect(amount).toBe(added + (pricing.tax - before.tax));
        expect(pricing.total - before.total).toBe(amount);
      }),
      fcParams(),
    );
  });
});
