/** A club site with one registration form, and requests to it as a browser sends them. */
import { initialMtimes } from "../../core/entity/field-mtimes";
import { clubs, formElements, registrations, sites } from "../../schema/d1";
import { db, pagePost, worker } from "./auth-fixtures";
import { hostRequest } from "./fixtures";

const DAY_MS = 86_400_000;
export const PORT_HOST = (host: string) => `${host}:8787`;

/** A club site with one registration form: names, email, phone, a priced distance with tiers, a toque and its colour, a discount. */
export async function createForm(
  options: {
    approved?: boolean;
    openInDays?: number;
    closeInDays?: number;
    isStripe?: boolean;
    stripeAccountId?: string | null;
    stripeChargesEnabled?: boolean;
  } = {},
) {
  const now = Date.now();
  const label = crypto.randomUUID().slice(0, 8);
  const host = `reg-${label}.example.org`;
  const site = { id: crypto.randomUUID(), hostname: host, config: { name: `Reg ${label}` } };
  await db()
    .insert(sites)
    .values({ ...site, fieldMtimes: initialMtimes(site, now) });
  const club = {
    id: crypto.randomUUID(),
    name: `Reg ${label} Club`,
    siteId: site.id,
    isStripe: options.isStripe ?? true,
    stripeAccountId: options.stripeAccountId ?? null,
    // A club given an account has finished Stripe's onboarding unless a test says otherwise.
    stripeChargesEnabled: options.stripeChargesEnabled ?? Boolean(options.stripeAccountId),
  };
  await db()
    .insert(clubs)
    .values({ ...club, fieldMtimes: {} });
  const registration = {
    id: crypto.randomUUID(),
    clubId: club.id,
    siteId: site.id,
    name: "Spring Relay",
    isApproved: options.approved ?? true,
    openTime: now + (options.openInDays ?? -1) * DAY_MS,
    closeTime: now + (options.closeInDays ?? 30) * DAY_MS,
    // Tier 2 is in force: prices rose yesterday.
    raisePrice1Time: now - DAY_MS,
    raisePrice2Time: now + 10 * DAY_MS,
    gstRate: 13,
  };
  await db()
    .insert(registrations)
    .values({ ...registration, fieldMtimes: {} });
  const ids = {
    first: crypto.randomUUID(),
    last: crypto.randomUUID(),
    email: crypto.randomUUID(),
    phone: crypto.randomUUID(),
    distance: crypto.randomUUID(),
    toque: crypto.randomUUID(),
    colour: crypto.randomUUID(),
    codes: crypto.randomUUID(),
  };
  const base = { registrationId: registration.id, clubId: club.id, siteId: site.id, fieldMtimes: {} };
  // One row per insert: D1 binds at most 100 values per statement.
  const rows = [
    { ...base, id: ids.first, type: "text", caption: "First name", isMandatory: true, ordinal: 1 },
    { ...base, id: ids.last, type: "text", caption: "Last name", isMandatory: true, ordinal: 2 },
    { ...base, id: ids.email, type: "email", caption: "Email", ordinal: 3 },
    { ...base, id: ids.phone, type: "phone", caption: "Cell Phone", ordinal: 4 },
    {
      ...base,
      id: ids.distance,
      type: "option",
      caption: "Distance",
      isMandatory: true,
      ordinal: 5,
      optionsList: [
        { id: "5k", display: "5 km", price_1: 3000, price_2: 3500, price_3: 4000 },
        { id: "10k", display: "10 km", price_1: 4000, price_2: 4500, price_3: 5000 },
      ],
    },
    { ...base, id: ids.toque, type: "checkbox", caption: "Toque", price1: 2000, isTaxable: true, ordinal: 6 },
    {
      ...base,
      id: ids.colour,
      type: "option",
      caption: "Toque colour",
      ordinal: 7,
      conditionElement: ids.toque,
      conditionOperator: "notempty",
      conditionValue: "",
      optionsList: [{ id: "red", display: "Red" }],
      isMandatory: true,
    },
    {
      ...base,
      id: ids.codes,
      type: "discount",
      caption: "Codes",
      ordinal: 8,
      config: { discounts_list: [{ code: "Half", type: "deduct_percent", amt: 50, elts_list: [ids.distance] }] },
    },
  ];
  for (const row of rows) await db().insert(formElements).values(row);
  return { host, site, club, registration, ids, path: `/register/${registration.id}` };
}

export function get(host: string, path: string, cookie?: string) {
  return worker.fetch(hostRequest(PORT_HOST(host), path, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" }));
}

/** A same-origin form post to a page of the form's site. */
export function post(host: string, path: string, fields: Record<string, string>, cookie?: string) {
  return pagePost(host, path, fields, cookie);
}
