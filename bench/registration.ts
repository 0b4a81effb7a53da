// Registration: pricing a cart of 10 people on a 60-field form (core/registration, pure), and the public
// registration page through `wrangler dev`: server render time and the client JS a first visit loads.
import { makeElement } from "../core/forms/test-elements";
import type { FormElement, StoredValue } from "../core/forms/model";
import { priceFormCart, type FormCartInput } from "../core/registration/price-form";
import { pageClientJsKb } from "./bundle-size";
import { percentile, send } from "./http";
import { report } from "./report";

const FIELDS = 60;
const PEOPLE = 10;
const RUNS = 2_000;
/** The demo registration form on the Nordic club's site (scripts/demo-data.ts). */
const DEMO_FORM = "c8d9e0f1-6b3c-4d5e-9f50-7b8c9d0e1f01";
const DEMO_HOST = "demo.localhost";

/** A long real-world form: names and contact details, priced options and extras, a donation and codes. */
function sixtyFieldForm(): { elements: FormElement[]; values: (person: number) => Record<string, StoredValue> } {
  const kinds = [
    "text",
    "text",
    "email",
    "phone",
    "dob",
    "gender",
    "province",
    "country",
    "option",
    "checkbox",
    "yesno",
    "multioption",
    "number",
    "donation",
    "waiver",
  ] as const;
  const elements: FormElement[] = [];
  for (let i = 0; i < FIELDS - 1; i++) {
    const type = kinds[i % kinds.length]!;
    const options =
      type === "option" || type === "multioption"
        ? ["a", "b", "c", "d"].map((id, k) => ({ id, display: id.toUpperCase(), price_1: 1000 * (k + 1), price_2: 1200 * (k + 1), price_3: 1500 * (k + 1) }))
        : [];
    const priced = type === "checkbox" || type === "yesno" || type === "number";
    elements.push(
      makeElement(type, {
        id: `e${i}`,
        ordinal: i,
        options_list: options,
        price_1: priced ? 500 : null,
        price_2: priced ? 700 : null,
        is_taxable: i % 3 === 0,
      }),
    );
  }
  const optionIds = elements.filter((e) => e.type === "option").map((e) => e.id);
  elements.push(
    makeElement("discount", {
      id: "codes",
      ordinal: FIELDS,
      config: {
        discounts_list: [
          { code: "TEAM", type: "deduct_percent", amt: 15, elts_list: optionIds },
          { code: "CAP", type: "pay_amount", amt: 150_000, elts_list: [] },
        ],
      },
    }),
  );
  const sample: Record<FormElement["type"], unknown> = {
    text: "Ada",
    email: { addresses: "ada@example.com", optin: true },
    phone: "6135550199",
    dob: "2010-05-01",
    gender: "F",
    province: "ON",
    country: "CA",
    option: "b",
    checkbox: true,
    yesno: "yes",
    multioption: ["a", "c"],
    number: 2,
    donation: 2500,
    waiver: true,
  } as Record<FormElement["type"], unknown>;
  return { elements, values: () => Object.fromEntries(elements.filter((e) => e.type !== "discount").map((e) => [e.id, { v: sample[e.type], p: 0 }])) };
}

export function runRegistrationPricing(): void {
  const { elements, values } = sixtyFieldForm();
  const input: FormCartInput = {
    elements,
    tier: 2,
    gstRatePercent: 13,
    clubTakesCards: true,
    isRemoved: false,
    cartValues: { codes: { v: "TEAM CAP", p: 0 } },
    individuals: Array.from({ length: PEOPLE }, (_, i) => ({ id: `p${i}`, isRemoved: false, isComplete: true, isNew: true, values: values(i) })),
    discountUses: {},
  };
  for (let i = 0; i < 200; i++) priceFormCart(input);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    priceFormCart(input);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  report("registration_price_cart_10_people_60_fields_mean", mean * 1000, "µs", { people: PEOPLE, fields: FIELDS, runs: RUNS });
  report("registration_price_cart_10_people_60_fields_p95", percentile(times, 95) * 1000, "µs", { people: PEOPLE, fields: FIELDS, runs: RUNS });
}

export async function runRegistrationPage(port: number): Promise<void> {
  const path = `/register/${DEMO_FORM}`;
  const first = await send(port, DEMO_HOST, "GET", path);
  if (first.status !== 200) throw new Error(`registration page answered ${first.status}`);
  const times: number[] = [];
  for (let i = 0; i < 60; i++) times.push((await send(port, DEMO_HOST, "GET", path)).ms);
  times.sort((a, b) => a - b);
  report("registration_page_render_p50", percentile(times, 50), "ms", { requests: times.length, via: "wrangler dev" });
  report("registration_page_render_p95", percentile(times, 95), "ms", { requests: times.length, via: "wrangler dev" });
  report("registration_page_client_js_gzip", pageClientJsKb(first.body), "KiB");
}
