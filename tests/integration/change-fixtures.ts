/** A person paid by card on the Stripe fake, and the receipt's change form for them (changes after checkout, decisions 0061 and 0066). */
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { individuals } from "../../schema/d1";
import { cookieFrom, db } from "./auth-fixtures";
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
