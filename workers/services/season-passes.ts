/**
 * Season passes from a registration (issue 27, decision 0050): a form whose settings name a pass season gives
 * every paid person of a completed cart a pass, by the queued job after payment. Each is found again by the
 * person it came from, so a retried job issues nothing twice.
 */
import { and, eq, inArray } from "drizzle-orm";
import { racerEntryOf } from "../../core/registration/racer-entry";
import { carts, individuals, registrations, type Db } from "../../schema/d1";
import { issueCard } from "./card-mails";
import { receiptLang } from "./receipts";
import { listElements } from "./registration-forms";

export async function issueSeasonPasses(env: Env, db: Db, registrationId: string, cartIds: readonly string[] | null, now: number): Promise<number> {
  const [registration] = await db.select().from(registrations).where(eq(registrations.id, registrationId)).limit(1);
  if (!registration?.passSeason) return 0;
  const elements = await listElements(db, registration.id);
  const emailField = elements.find((e) => e.type === "email");
  const people = await db
    .select({ individual: individuals, cartLang: carts.lang })
    .from(individuals)
    .innerJoin(carts, eq(carts.id, individuals.cartId))
    .where(
      and(
        eq(individuals.registrationId, registration.id),
        eq(carts.isComplete, true),
        eq(carts.isRemoved, false),
        eq(individuals.isRemoved, false),
        eq(individuals.isComplete, true),
        cartIds ? inArray(individuals.cartId, [...cartIds]) : undefined,
      ),
    );
  let issued = 0;
  for (const { individual, cartLang } of people) {
    const entry = racerEntryOf(elements, registration, individual);
    const holderName = `${entry.first_name} ${entry.last_name}`.trim();
    if (!holderName) continue;
    const email = emailField ? individual.values[emailField.id]?.v : null;
    const { created } = await issueCard(
      env,
      db,
      {
        clubId: registration.clubId,
        siteId: registration.siteId,
        kind: "pass",
        holderName,
        holderEmail: typeof email === "string" && email.includes("@") ? email.trim().toLowerCase() : null,
        season: registration.passSeason,
        validFrom: registration.passValidFrom,
        validUntil: registration.passValidUntil,
        source: `individual:${individual.id}`,
        lang: receiptLang({ lang: cartLang }, registration),
      },
      now,
    );
    if (created) issued++;
  }
  return issued;
}
