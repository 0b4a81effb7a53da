/** A person paid by card on the Stripe fake, and the receipt's change form for them (changes after checkout, decisions 0061 and 0066). */
import { asc, eq } from "drizzle-orm";
import { expect, vi } from "vitest";
import { capturedMail, formElements, individuals, registrations, waitlistEntries } from "../../schema/d1";
import { cookieFrom, db } from "./auth-fixtures";
import { createForm as newForm } from "./registration-fixtures";
import type { createForm } from "./registration-fixtures";
import { post } from "./registration-fixtures";
import type { StripeFake } from "../fakes/stripe/fake";

type Form = Awaited<ReturnType<typeof createForm>>;
export const CARD = "4242 4242 4242 4242";
export const sessionOf = (location: string | null) => /\/c\/pay\/(cs_[A-Za-z0-9_]+)/.exec(location ?? "")?.[1] ?? null;

/** One new person with `distance` in a cart of their own, paid by card on the fake. */
export async function paidPerson(
  fake: StripeFake,
  f: Form,
  distance: string,
  first = "Ada",
): Promise<{ cookie: string; personId: string; cartId: string; email: string }> {
  const added = await post(f.host, f.path, { intent: "save-person", [f.ids.first]: first, [f.ids.last]: "Runner", [f.ids.distance]: distance });
  const cookie = cookieFrom(added, `sl_cart_${f.registration.id.replaceAll("-", "")}`)!;
  const email = `${first.toLowerCase()}-${crypto.randomUUID().slice(0, 6)}@example.com`;
  await post(f.host, `${f.path}/cart`, { intent: "continue", email }, cookie);
  const started = await post(f.host, `${f.path}/pay`, { intent: "card" }, cookie);
  expect((await fake.pay(sessionOf(started.headers.get("Location"))!, CARD)).status).toBe(303);
  const everyone = await db().select().from(individuals).where(eq(individuals.registrationId, f.registration.id));
  const person = everyone.find((p) => p.values[f.ids.first]?.v === first)!;
  return { cookie, personId: person.id, cartId: person.cartId, email };
}

/** The receipt's change form for a person: their names and another distance. */
export const changeTo = (f: Form, personId: string, requestId: string, distance: string, first = "Ada", extra: Record<string, string> = {}) => ({
  intent: "change",
  kind: "edit",
  person: personId,
  request_id: requestId,
  [f.ids.first]: first,
  [f.ids.last]: "Runner",
  [f.ids.distance]: distance,
  ...extra,
});

type Option = { id: string; display: string; price_1: number; price_2: number; price_3: number; limit?: number };

/** A card-taking form with a waitlist whose Half marathon ($50) has one place, with any `more` distances added. */
export async function halfForm(more: Option[] = []): Promise<Form> {
  const f = await newForm({ stripeAccountId: `acct_${crypto.randomUUID().slice(0, 8)}` });
  const [distance] = await db().select().from(formElements).where(eq(formElements.id, f.ids.distance));
  const half = { id: "half", display: "Half marathon", price_1: 5000, price_2: 5000, price_3: 5000, limit: 1 };
  await db()
    .update(formElements)
    .set({ optionsList: [...distance!.optionsList, half, ...more] })
    .where(eq(formElements.id, f.ids.distance));
  await db().update(registrations).set({ waitlistOfferHours: 24, cancelRefundPercent: 100, cancelFee: 0 }).where(eq(registrations.id, f.registration.id));
  return f;
}

export const entriesOf = (f: Form) =>
  db().select().from(waitlistEntries).where(eq(waitlistEntries.registrationId, f.registration.id)).orderBy(asc(waitlistEntries.position));
export const mailsTo = async (to: string) => (await db().select().from(capturedMail)).filter((m) => m.to === to);
export const distanceOf = async (id: string) => (await db().select().from(individuals).where(eq(individuals.id, id)))[0]!.values;
export const offerPath = async (to: string) => {
  const mail = (await mailsTo(to)).find((m) => m.text.includes("/change-offer?offer="));
  return /https?:\/\/[^/\s]+(\/register\/[^\s]+\/change-offer\?offer=[^\s]+)/.exec(mail?.text ?? "")?.[1] ?? "";
};

/** The offer mailed to `to`: its page's path and its token, once the mail is there. */
export async function offerLink(to: string): Promise<{ link: string; token: string }> {
  const link = await vi.waitFor(async () => {
    const found = await offerPath(to);
    expect(found).not.toBe("");
    return found;
  });
  return { link, token: new URL(`https://x${link}`).searchParams.get("offer")! };
}

/** Cancels the person from their receipt: their place frees. */
export async function cancel(f: Form, who: { cookie: string; personId: string }) {
  expect((await post(f.host, `${f.path}/receipt`, { intent: "cancel", person: who.personId, request_id: crypto.randomUUID() }, who.cookie)).status).toBe(302);
}
