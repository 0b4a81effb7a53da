import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { carts, formElements, individuals, registrations } from "../../schema/d1";
import { cookieFrom, createUserWithPassword, db, latestMailTo, signIn } from "./auth-fixtures";
import { createForm, get, post } from "./registration-fixtures";

function errorOf(html: string, elementId: string): string | null {
  return new RegExp(`id="f-${elementId}-error" class="form-error">([^<]*)<`).exec(html)?.[1]?.replaceAll("&#x27;", "'") ?? null;
}

describe("public registration flow", () => {
  it("shows the form, refuses bad answers in the spec's words, and writes nothing", async () => {
    const f = await createForm();
    const page = await get(f.host, f.path);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Spring Relay");
    expect(html).toContain("10 km — $45.00");
    const refused = await post(f.host, f.path, {
      intent: "save-person",
      [f.ids.first]: "Ada",
      [f.ids.phone]: "12345",
      [f.ids.email]: "ada-at-example",
      [f.ids.distance]: "5k",
    });
    expect(refused.status).toBe(400);
    const body = await refused.text();
    expect(errorOf(body, f.ids.last)).toBe("This field is required");
    expect(errorOf(body, f.ids.phone)).toBe("Phone numbers should be in the format 123-456-7890");
    expect(errorOf(body, f.ids.email)).toBe(
      "Email addresses should be in the format name@host. You can enter multiple addresses, separated by a space or comma.",
    );
    expect(cookieFrom(refused, `sl_cart_${f.registration.id.replaceAll("-", "")}`)).toBeNull();
    expect(await db().select().from(individuals).where(eq(individuals.registrationId, f.registration.id))).toHaveLength(0);
  });

  it("adds two people to one cart, prices them at the tier in force, applies a code and reaches ready to pay", async () => {
    const f = await createForm();
    const cookieName = `sl_cart_${f.registration.id.replaceAll("-", "")}`;
    const first = await post(f.host, f.path, {
      intent: "save-person",
      [f.ids.first]: "Ada",
      [f.ids.last]: "Lovelace",
      [f.ids.distance]: "10k",
      [f.ids.toque]: "on",
      [f.ids.colour]: "red",
      [f.ids.phone]: "(613) 555-0199",
    });
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toBe(`${f.path}/cart`);
    const cookie = cookieFrom(first, cookieName)!;
    expect(cookie).toBeTruthy();
    // The colour is asked only with a toque; without one it is neither required nor kept.
    expect(
      (
        await post(
          f.host,
          f.path,
          { intent: "save-person", [f.ids.first]: "Bo", [f.ids.last]: "Lovelace", [f.ids.distance]: "5k", [f.ids.colour]: "red" },
          cookie,
        )
      ).status,
    ).toBe(302);

    const cart = await (await get(f.host, `${f.path}/cart`, cookie)).text();
    expect(cart).toContain("Ada Lovelace, Bo Lovelace");
    expect(cart).toContain("613-555-0199");
    // 45.00 + 20.00 + 35.00 = 100.00; 13% tax on the toque 2.60; 1.00 system fee per new person.
    expect(cart).toMatch(/data-testid="price-total"><th scope="row">Total<\/th><td class="money">\$104.60</);
    const people = await db().select().from(individuals).where(eq(individuals.registrationId, f.registration.id));
    expect(people.find((p) => (p.values[f.ids.first]?.v as string) === "Bo")!.values[f.ids.colour]).toBeUndefined();

    const badCode = await post(f.host, `${f.path}/cart`, { intent: "apply-codes", codes: "nope" }, cookie);
    expect(badCode.status).toBe(400);
    expect(await badCode.text()).toContain("Unknown discount code: NOPE");
    expect((await post(f.host, `${f.path}/cart`, { intent: "apply-codes", codes: "half" }, cookie)).status).toBe(302);
    // Half off both distances: 100.00 − 40.00 + 2.60 + 2.00.
    expect(await (await get(f.host, `${f.path}/cart`, cookie)).text()).toContain("$64.60");

    const noEmail = await post(f.host, `${f.path}/cart`, { intent: "continue", email: "not-an-email" }, cookie);
    expect(noEmail.status).toBe(400);
    const onward = await post(f.host, `${f.path}/cart`, { intent: "continue", email: "ada@example.com" }, cookie);
    expect(onward.headers.get("Location")).toBe(`${f.path}/pay`);
    const pay = await (await get(f.host, `${f.path}/pay`, cookie)).text();
    expect(pay).toMatch(/data-testid="amount-due">\$64.60</);
  });

  it("takes a person out of the cart and lowers the total", async () => {
    const f = await createForm({ isStripe: false });
    const cookieName = `sl_cart_${f.registration.id.replaceAll("-", "")}`;
    const first = await post(f.host, f.path, { intent: "save-person", [f.ids.first]: "Ada", [f.ids.last]: "L", [f.ids.distance]: "10k" });
    const cookie = cookieFrom(first, cookieName)!;
    await post(f.host, f.path, { intent: "save-person", [f.ids.first]: "Bo", [f.ids.last]: "L", [f.ids.distance]: "5k" }, cookie);
    const [, bo] = await db().select().from(individuals).where(eq(individuals.registrationId, f.registration.id)).orderBy(individuals.ordinal);
    expect((await post(f.host, `${f.path}/cart`, { intent: "remove-person", person: bo!.id }, cookie)).status).toBe(302);
    const cart = await (await get(f.host, `${f.path}/cart`, cookie)).text();
    expect(cart).not.toContain("Bo L");
    expect(cart).toMatch(/Total<\/th><td class="money">\$45.00</);
  });

  it("counts a per-person code's qty by the people it took something off, across carts", async () => {
    const f = await createForm({ isStripe: false });
    await db()
      .update(formElements)
      .set({ config: { discounts_list: [{ code: "Half", type: "deduct_percent", amt: 50, elts_list: [f.ids.distance], qty: 3 }] } })
      .where(eq(formElements.id, f.ids.codes));
    const cookieName = `sl_cart_${f.registration.id.replaceAll("-", "")}`;
    const twoWithCode = async () => {
      const first = await post(f.host, f.path, { intent: "save-person", [f.ids.first]: "Ada", [f.ids.last]: "L", [f.ids.distance]: "10k" });
      const cookie = cookieFrom(first, cookieName)!;
      await post(f.host, f.path, { intent: "save-person", [f.ids.first]: "Bo", [f.ids.last]: "L", [f.ids.distance]: "5k" }, cookie);
      expect((await post(f.host, `${f.path}/cart`, { intent: "apply-codes", codes: "half" }, cookie)).status).toBe(302);
      return cookie;
    };
    const totalOf = async (cookie: string) => /Total<\/th><td class="money">(\$[\d.,]+)</.exec(await (await get(f.host, `${f.path}/cart`, cookie)).text())?.[1];

    const firstCart = await twoWithCode();
    // Both distances at half: 22.50 + 17.50.
    expect(await totalOf(firstCart)).toBe("$40.00");
    expect((await post(f.host, `${f.path}/cart`, { intent: "continue", email: "ada@example.com" }, firstCart)).status).toBe(302);
    expect((await post(f.host, `${f.path}/pay`, { intent: "manual" }, firstCart)).status).toBe(302);
    const [done] = await db()
      .select()
      .from(carts)
      .where(and(eq(carts.registrationId, f.registration.id), eq(carts.isComplete, true)));
    expect(done!.discountUses).toEqual({ HALF: 2 });

    // Two of the three uses are taken: the next cart's first person gets half off, the second pays 35.00.
    const secondCart = await twoWithCode();
    expect(await totalOf(secondCart)).toBe("$57.50");

    // An organiser removes the first cart: its uses are free again.
    await db().update(carts).set({ isRemoved: true }).where(eq(carts.id, done!.id));
    expect(await totalOf(secondCart)).toBe("$40.00");
  });

  it("calls registrants what the form calls them, on every page and the receipt", async () => {
    const f = await createForm({ isStripe: false });
    await db()
      .update(registrations)
      .set({ peopleLabels: { singular: "[en]racer[fr]coureur", plural: "racers" }, isBilingual: true })
      .where(eq(registrations.id, f.registration.id));
    const cookieName = `sl_cart_${f.registration.id.replaceAll("-", "")}`;
    const saved = await post(f.host, f.path, { intent: "save-person", [f.ids.first]: "Ada", [f.ids.last]: "L", [f.ids.distance]: "10k" });
    const cookie = cookieFrom(saved, cookieName)!;
    const second = await (await get(f.host, f.path, cookie)).text();
    expect(second).toContain("<h2>Racer 2</h2>");
    expect(second).toContain('aria-current="step">Racers</li>');
    expect(second).toContain("This racer: ");
    expect(await (await get(f.host, `${f.path}?lang=fr`, cookie)).text()).toContain("<h2>Coureur 2</h2>");
    await post(f.host, f.path, { intent: "save-person", [f.ids.first]: "Bo", [f.ids.last]: "L", [f.ids.distance]: "5k" }, cookie);
    expect(await (await get(f.host, `${f.path}/cart`, cookie)).text()).toContain("Add another racer");
    expect((await post(f.host, `${f.path}/cart`, { intent: "continue", email: "ada@example.com" }, cookie)).status).toBe(302);
    expect(await (await get(f.host, `${f.path}/pay`, cookie)).text()).toContain("Ada L, Bo L (2 racers)");
    expect((await post(f.host, `${f.path}/pay`, { intent: "manual" }, cookie)).status).toBe(302);
    expect(await (await get(f.host, `${f.path}/receipt`, cookie)).text()).toContain('<th scope="col">Racer</th>');
  });

  it("speaks French on a bilingual form when the registrant switches, through to the pay step", async () => {
    const f = await createForm({ isStripe: false });
    await db().update(registrations).set({ isBilingual: true }).where(eq(registrations.id, f.registration.id));
    const english = await (await get(f.host, f.path)).text();
    expect(english).toContain("Who is registering?");
    expect(english).toMatch(/<a [^>]*lang="fr"[^>]*>Français<\/a>/);
    const first = await (await get(f.host, `${f.path}?lang=fr`)).text();
    expect(first).toContain("Qui s’inscrit ?");
    expect(first).toContain("Ajouter au panier");
    expect(first).toContain('aria-current="step">Personnes</li>');
    const saved = await post(f.host, `${f.path}?lang=fr`, {
      intent: "save-person",
      [f.ids.first]: "Ada",
      [f.ids.last]: "L",
      [f.ids.distance]: "10k",
      [f.ids.toque]: "on",
      [f.ids.colour]: "red",
    });
    expect(saved.headers.get("Location")).toBe(`${f.path}/cart?lang=fr`);
    const cookie = cookieFrom(saved, `sl_cart_${f.registration.id.replaceAll("-", "")}`)!;
    const cart = await (await get(f.host, `${f.path}/cart?lang=fr`, cookie)).text();
    expect(cart).toContain("Votre panier");
    expect(cart).toContain("Inscrire quelqu’un d’autre");
    expect(cart).toContain('<th scope="row">Taxe (13 %)</th>');
    expect((await post(f.host, `${f.path}/cart?lang=fr`, { intent: "continue", email: "ada@example.com" }, cookie)).headers.get("Location")).toBe(
      `${f.path}/pay?lang=fr`,
    );
    const pay = await (await get(f.host, `${f.path}/pay?lang=fr`, cookie)).text();
    expect(pay).toContain("Prêt à payer");
    expect(pay).toContain("(1 personne). Reçu envoyé à ada@example.com.");
    expect(pay).toContain("S’inscrire maintenant et payer le club en argent comptant ou par chèque");
  });

  it("emails a link that opens the same cart on another device", async () => {
    const f = await createForm();
    const first = await post(f.host, f.path, { intent: "save-person", [f.ids.first]: "Cy", [f.ids.last]: "Resume", [f.ids.distance]: "5k" });
    expect(first.status).toBe(302);
    const cookie = cookieFrom(first, `sl_cart_${f.registration.id.replaceAll("-", "")}`)!;
    const email = `resume-${crypto.randomUUID().slice(0, 6)}@example.com`;
    const sent = await post(f.host, `${f.path}/cart`, { intent: "send-link", email }, cookie);
    expect(sent.headers.get("Location")).toBe(`${f.path}/cart?sent=${encodeURIComponent(email)}`);
    const rotated = cookieFrom(sent, `sl_cart_${f.registration.id.replaceAll("-", "")}`)!;
    expect(await (await get(f.host, `${f.path}/cart?sent=x`, rotated)).text()).toContain("We sent a link to x.");
    const mail = await latestMailTo(email);
    const link = new URL(/https?:\/\/\S+/.exec(mail!.text)![0]);
    const opened = await get(f.host, `${link.pathname}${link.search}`);
    expect(opened.status).toBe(302);
    const fresh = opened.headers.getSetCookie()[0]!.split(";")[0]!;
    expect(await (await get(f.host, `${f.path}/cart`, fresh)).text()).toContain("Cy Resume");
    // The old cookie's token was replaced by the emailed one.
    expect((await get(f.host, `${f.path}/cart`, cookie)).headers.get("Location")).toBe(f.path);
  });

  it("hides a form that is not live from the public, lets its organisers preview it, and says when registration is closed", async () => {
    const draft = await createForm({ approved: false });
    expect((await get(draft.host, draft.path)).status).toBe(404);
    const email = `org-${crypto.randomUUID().slice(0, 6)}@example.com`;
    await createUserWithPassword(email, "glacier-ski-42", [{ type: "registration_admin", scope: draft.registration.id, clubId: draft.club.id }]);
    const staff = await signIn(draft.host, email, "glacier-ski-42");
    const preview = await get(draft.host, draft.path, staff);
    expect(preview.status).toBe(200);
    expect(await preview.text()).toContain("Preview (Test Mode)");
    const closed = await createForm({ openInDays: -20, closeInDays: -1 });
    const page = await get(closed.host, closed.path);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain("Registration is closed");
  });

  it("runs a registration desk: kiosk fields for staff only, and a fresh cart for the next registrant", async () => {
    const f = await createForm();
    const kioskOnly = crypto.randomUUID();
    await db().insert(formElements).values({
      id: kioskOnly,
      registrationId: f.registration.id,
      clubId: f.club.id,
      siteId: f.site.id,
      type: "text",
      caption: "Desk notes",
      isKioskMode: true,
      ordinal: 9,
      fieldMtimes: {},
    });
    expect(await (await get(f.host, `${f.path}?kiosk=1`)).text()).not.toContain("Desk notes");
    const email = `desk-${crypto.randomUUID().slice(0, 6)}@example.com`;
    await createUserWithPassword(email, "glacier-ski-42", [{ type: "registration_admin", scope: f.registration.id, clubId: f.club.id }]);
    const staff = await signIn(f.host, email, "glacier-ski-42");
    expect(await (await get(f.host, `${f.path}?kiosk=1`, staff)).text()).toContain("Desk notes");
    const saved = await post(
      f.host,
      `${f.path}?kiosk=1`,
      { intent: "save-person", [f.ids.first]: "Di", [f.ids.last]: "Desk", [f.ids.distance]: "5k", [kioskOnly]: "paid cash" },
      staff,
    );
    const cart = cookieFrom(saved, `sl_cart_${f.registration.id.replaceAll("-", "")}`)!;
    const person = (await db().select().from(individuals).where(eq(individuals.registrationId, f.registration.id)))[0]!;
    expect(person.values[kioskOnly]?.v).toBe("paid cash");
    const next = await post(f.host, `${f.path}/pay?kiosk=1`, { intent: "next" }, `${staff}; ${cart}`);
    expect(next.headers.get("Location")).toBe(`${f.path}?kiosk=1`);
    expect(next.headers.getSetCookie()[0]).toMatch(/Max-Age=0/);
  });
});
