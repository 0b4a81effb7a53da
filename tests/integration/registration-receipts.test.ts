// Receipts itemised and in the registrant's language (issue 24): the lines as charged, money and dates the way
// each language writes them, in the mail and on the receipt page.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { registrations } from "../../schema/d1";
import { cookieFrom, db, latestMailWithSubject } from "./auth-fixtures";
import { createForm, get, post } from "./registration-fixtures";

const NBSP = "\u00a0";

async function registerByCheque(f: Awaited<ReturnType<typeof createForm>>, email: string, lang: "en" | "fr") {
  const query = lang === "fr" ? "?lang=fr" : "";
  const first = await post(f.host, `${f.path}${query}`, {
    intent: "save-person",
    [f.ids.first]: "Ada",
    [f.ids.last]: "Lovelace",
    [f.ids.distance]: "10k",
    [f.ids.toque]: "on",
    [f.ids.colour]: "red",
  });
  expect(first.status).toBe(302);
  const cookie = cookieFrom(first, `sl_cart_${f.registration.id.replaceAll("-", "")}`)!;
  expect((await post(f.host, `${f.path}/cart${query}`, { intent: "apply-codes", codes: "half" }, cookie)).status).toBe(302);
  expect((await post(f.host, `${f.path}/cart${query}`, { intent: "continue", email }, cookie)).status).toBe(302);
  expect((await post(f.host, `${f.path}/pay${query}`, { intent: "manual" }, cookie)).status).toBe(302);
  return cookie;
}

async function mailOf(email: string, subject: string) {
  for (let i = 0; i < 100; i++) {
    const mail = await latestMailWithSubject(email, subject);
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no mail "${subject}" to ${email}`);
}

describe("itemised receipts in the registrant's language", () => {
  it("in English: each line as charged (the distance, the toque, the code, the tax), then the totals", async () => {
    const f = await createForm({ isStripe: false });
    const cookie = await registerByCheque(f, "en@example.com", "en");
    const mail = await mailOf("en@example.com", "Registration confirmed: Spring Relay");
    // 45.00 for 10 km, half off with HALF; the toque 20.00 with 13% tax on it.
    expect(mail.text).toContain("  Ada Lovelace: $45.10");
    expect(mail.text).toContain("    Distance: 10 km: $45.00");
    expect(mail.text).toContain("    Discount (HALF): -$22.50");
    expect(mail.text).toContain("    Toque: $20.00");
    expect(mail.text).toContain("  Tax (13%): $2.60");
    expect(mail.text).toContain("To pay the club by cash or cheque: $45.10");
    const page = await (await get(f.host, `${f.path}/receipt`, cookie)).text();
    expect(page).toContain("Registration confirmed: payment due");
    expect(page).toContain("Distance: 10 km");
  });

  it("in French: French words, fr-CA money and dates, in the mail and on the page", async () => {
    const f = await createForm({ isStripe: false });
    await db().update(registrations).set({ isBilingual: true }).where(eq(registrations.id, f.registration.id));
    const cookie = await registerByCheque(f, "fr@example.com", "fr");
    const mail = await mailOf("fr@example.com", "Inscription confirmée : Spring Relay");
    expect(mail.text).toContain(`Merci de vous être inscrit à Spring Relay`);
    expect(mail.text).toContain(`  Ada Lovelace : 45,10${NBSP}$`);
    expect(mail.text).toContain(`    Distance : 10 km : 45,00${NBSP}$`);
    expect(mail.text).toContain(`    Rabais (HALF) : -22,50${NBSP}$`);
    expect(mail.text).toContain(`  Taxe (13 %) : 2,60${NBSP}$`);
    expect(mail.text).toContain(`À payer au club en argent comptant ou par chèque : 45,10${NBSP}$`);
    expect(mail.text).toMatch(/\d{1,2} (janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre) \d{4}/);
    expect(mail.text).toContain("&lang=fr");
    const page = await (await get(f.host, `${f.path}/receipt`, cookie)).text();
    expect(page).toContain("Inscription confirmée : paiement à faire");
    expect(page).toContain(`45,10${NBSP}$`);
  });
});
