import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { initialMtimes } from "../../core/entity/field-mtimes";
import { clubs, registrations, roles } from "../../schema/d1";
import { FormElement } from "../../schema/entities/classes";
import { historyOf } from "../../workers/services/entity-history";
import { listElements } from "../../workers/services/registration-forms";
import { createUserWithPassword, db, signIn, pagePost, worker } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";

const HOST = "localhost";
const ADMIN_HOST = "admin.localhost";
const PASSWORD = "glacier-ski-42";

function get(path: string, cookie: string, host = HOST) {
  return worker.fetch(hostRequest(host, path, { headers: { Cookie: cookie }, redirect: "manual" }));
}

const post = (path: string, cookie: string, fields: Record<string, string> | [string, string][], host = HOST) => pagePost(host, path, fields, cookie);

/** A club on its own site, a registration form of it, and a signed-in user with `role` (bound to the club or the form). */
async function formWithUser(role: "all_registrations" | "registration_admin" | "registration_readonly" | null = "all_registrations") {
  const label = crypto.randomUUID().slice(0, 8);
  const { club, site } = await createSiteWithRace(db(), { hostname: `forms-${label}.example.org`, siteName: `Forms ${label}`, raceName: "Unused Race" });
  const registration = { id: crypto.randomUUID(), clubId: club.id, siteId: site.id, name: "Spring Loppet" };
  await db()
    .insert(registrations)
    .values({ ...registration, fieldMtimes: initialMtimes(registration, Date.now()) });
  const email = `forms-${label}@example.com`;
  const grant = role === "all_registrations" ? [{ type: role, clubId: club.id }] : role ? [{ type: role, scope: registration.id }] : [];
  await createUserWithPassword(email, PASSWORD, grant);
  return { club, registration, cookie: await signIn(HOST, email, PASSWORD), admin: `/registration/${registration.id}/admin` };
}

/** A System Administrator with the registrations flag, signed in on the admin host. */
async function reviewer() {
  const email = `reviewer-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const { roleIds } = await createUserWithPassword(email, PASSWORD, [{ type: "system_admin" }]);
  await db()
    .update(roles)
    .set({ config: { registrations: true } })
    .where(eq(roles.id, roleIds[0]!));
  return signIn(ADMIN_HOST, email, PASSWORD);
}

async function addField(admin: string, cookie: string, type: string, caption: string): Promise<string> {
  const response = await post(`${admin}?index`, cookie, { intent: "add", type, caption });
  expect(response.status).toBe(302);
  const location = response.headers.get("Location")!;
  expect(location).toMatch(new RegExp(`^${admin}/elements/[0-9a-f-]{36}\\?saved=added$`));
  return /elements\/([0-9a-f-]{36})/.exec(location)![1]!;
}

/** What the element editor posts for a field with no price, flags or condition, plus `extra`. */
function editorFields(caption: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    intent: "save",
    caption,
    title: "",
    column_header: "",
    price_1: "",
    price_2: "",
    price_3: "",
    quantity_limit: "",
    "condition.element": "",
    "condition.operator": "eq",
    "condition.value": "",
    ...extra,
  };
}

function fieldError(html: string, field: string): string | null {
  return new RegExp(`id="${field.replaceAll(".", "\\.")}-error" class="form-error">([^<]*)<`).exec(html)?.[1] ?? null;
}

function optionIds(html: string): string[] {
  return [...html.matchAll(/name="options_list\.\d+\.id" value="([^"]+)"/g)].map((m) => m[1]!);
}

const order = async (registrationId: string) => (await listElements(db(), registrationId)).map((e) => e.caption);

describe("registration form builder", () => {
  it("lists the forms, creates one and opens its builder", async () => {
    const { club, cookie } = await formWithUser();
    const list = await (await get("/club/registrations", cookie)).text();
    expect(list).toContain("Spring Loppet");
    expect(list).toContain("Test Mode");
    expect(list).toContain("New registration form");
    expect(fieldError(await (await post("/club/registrations", cookie, { intent: "create", club: club.id, name: " " })).text(), "name")).toBe(
      "Give the form a name",
    );
    const created = await post("/club/registrations", cookie, { intent: "create", club: club.id, name: "Summer Camp" });
    expect(created.status).toBe(302);
    const location = created.headers.get("Location")!;
    expect(location).toMatch(/^\/registration\/[0-9a-f-]{36}\/admin\?saved=created$/);
    const builder = await (await get(location, cookie)).text();
    expect(builder).toContain("Summer Camp");
    expect(builder).toContain("No fields yet. Add the first one below.");
    expect(builder).toContain('data-testid="registration-status">Test Mode<');
    expect(builder).toContain(`href="/register/${/registration\/([0-9a-f-]{36})/.exec(location)![1]}?preview=1"`);
  });

  it("adds fields of several types and edits an option field's options and prices in dollars", async () => {
    const { registration, cookie, admin } = await formWithUser("registration_admin");
    await addField(admin, cookie, "text", "First name");
    await addField(admin, cookie, "email", "Email");
    const distance = await addField(admin, cookie, "option", "Distance");
    const editor = `${admin}/elements/${distance}`;
    expect(await (await get(editor, cookie)).text()).toContain("No options yet. Add the first one.");

    // "Add option" comes back with a new blank row and saves nothing; the first row keeps its id.
    const one = await post(editor, cookie, editorFields("Distance", { intent: "add-option" }));
    expect(one.status).toBe(200);
    const [first] = optionIds(await one.text());
    const row = (i: number, id: string, display: string, p1: string, p2 = "") => ({
      [`options_list.${i}.id`]: id,
      [`options_list.${i}.display`]: display,
      [`options_list.${i}.value`]: "",
      [`options_list.${i}.limit`]: "",
      [`options_list.${i}.price_1`]: p1,
      [`options_list.${i}.price_2`]: p2,
      [`options_list.${i}.price_3`]: "",
    });
    const two = optionIds(await (await post(editor, cookie, editorFields("Distance", { intent: "add-option", ...row(0, first!, "10 km", "25") }))).text());
    expect(two).toHaveLength(2);
    expect(two[0]).toBe(first);
    expect(await listElements(db(), registration.id).then((els) => els.find((e) => e.id === distance)!.options_list)).toEqual([]);

    const bad = await post(editor, cookie, editorFields("Distance", { ...row(0, two[0]!, "10 km", "25,00"), ...row(1, two[1]!, "5 km", "15.5") }));
    expect(bad.status).toBe(400);
    expect(fieldError(await bad.text(), "options_list.0.price_1")).toBe("Enter an amount like 25.00");
    const ages = await post(
      editor,
      cookie,
      editorFields("Distance", {
        ...row(0, two[0]!, "10 km", "25.00"),
        ...row(1, two[1]!, "5 km", "15.5"),
        "options_list.1.min_age": "12",
        "options_list.1.max_age": "10",
      }),
    );
    expect(fieldError(await ages.text(), "options_list.1.max_age")).toBe("The oldest age must be at least the youngest");

    const saved = await post(
      editor,
      cookie,
      editorFields("Distance", {
        price_1: "10",
        is_mandatory: "on",
        display_type: "select",
        ...row(0, two[0]!, "10 km", "25.00", "30"),
        ...row(1, two[1]!, "5 km", "15.5"),
        "options_list.1.is_hidden": "on",
        "options_list.1.min_age": "8",
        "options_list.1.max_age": "12",
        "options_list.1.is_female": "on",
        "options_list.0.is_fee": "on",
      }),
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(`${editor}?saved=saved`);
    const stored = (await listElements(db(), registration.id)).find((e) => e.id === distance)!;
    expect(stored).toMatchObject({ price_1: 1000, is_mandatory: true, display_type: "select" });
    expect(stored.options_list).toMatchObject([
      { id: two[0], display: "10 km", price_1: 2500, price_2: 3000, price_3: null, is_hidden: false, is_fee: true, min_age: null, is_female: false },
      { id: two[1], display: "5 km", price_1: 1550, is_hidden: true, min_age: 8, max_age: 12, is_female: true, is_male: false, is_fee: false },
    ]);
    const page = await (await get(`${editor}?saved=saved`, cookie)).text();
    expect(page).toContain("Your changes are saved.");
    expect(page).toContain('value="25.00"');

    // Removing a row comes back without it; the other keeps its id.
    const removed = await post(
      editor,
      cookie,
      editorFields("Distance", { intent: "remove-option:0", ...row(0, two[0]!, "10 km", "25.00"), ...row(1, two[1]!, "5 km", "15.50") }),
    );
    expect(optionIds(await removed.text())).toEqual([two[1]]);

    const list = await (await get(admin, cookie)).text();
    expect(list).toContain("First name");
    expect(list).toContain("Option (choose one)");
    expect(list).toContain("10.00 / — / —");
    expect(list).toContain("<li>mandatory</li>");
  });

  it("saves a condition and a discount, and refuses to delete a field another depends on", async () => {
    const { registration, cookie, admin } = await formWithUser();
    const member = await addField(admin, cookie, "yesno", "Club member?");
    const fee = await addField(admin, cookie, "text", "Membership number");
    const entry = await addField(admin, cookie, "option", "Entry");
    const codes = await addField(admin, cookie, "discount", "Discount code");
    const feeEditor = `${admin}/elements/${fee}`;
    expect(
      fieldError(
        await (await post(feeEditor, cookie, editorFields("Membership number", { "condition.element": crypto.randomUUID() }))).text(),
        "condition.element",
      ),
    ).toBe("Choose a field of this form");
    expect(
      (await post(feeEditor, cookie, editorFields("Membership number", { "condition.element": member, "condition.operator": "eq", "condition.value": "yes" })))
        .status,
    ).toBe(302);
    expect((await listElements(db(), registration.id)).find((e) => e.id === fee)!.condition).toEqual({ element: member, operator: "eq", value: "yes" });
    expect((await post(`${admin}/elements/${entry}`, cookie, editorFields("Entry", { price_1: "40" }))).status).toBe(302);

    const codesEditor = `${admin}/elements/${codes}`;
    const withRow = await (await post(codesEditor, cookie, { intent: "add-discount", caption: "Discount code" })).text();
    expect(withRow).toContain('name="config.discounts_list.0.code"');
    expect(withRow).toContain("Apply once to the whole cart (otherwise once per person)");
    const discount = (i: number, code: string, type: string, amt: string): [string, string][] => [
      [`config.discounts_list.${i}.code`, code],
      [`config.discounts_list.${i}.type`, type],
      [`config.discounts_list.${i}.amt`, amt],
      [`config.discounts_list.${i}.description`, ""],
      [`config.discounts_list.${i}.qty`, "5"],
      [`config.discounts_list.${i}.elts_list`, entry],
    ];
    const base = Object.entries(editorFields("Discount code"));
    const badPercent = await post(codesEditor, cookie, [...base, ...discount(0, "EARLY", "deduct_percent", "150")]);
    expect(fieldError(await badPercent.text(), "config.discounts_list.0.amt")).toBe("Enter a percentage from 0 to 100");
    const savedCodes = await post(codesEditor, cookie, [
      ...base,
      ["all_discount", "on"],
      ...discount(0, "EARLY", "deduct_percent", "10"),
      ...discount(1, "FRIEND", "deduct_amount", "5.50"),
    ]);
    expect(savedCodes.status).toBe(302);
    const stored = (await listElements(db(), registration.id)).find((e) => e.id === codes)!;
    expect(stored.all_discount).toBe(true);
    expect(stored.config.discounts_list).toEqual([
      { code: "EARLY", type: "deduct_percent", amt: 10, elts_list: [entry], qty: 5 },
      { code: "FRIEND", type: "deduct_amount", amt: 550, elts_list: [entry], qty: 5 },
    ]);

    const confirm = await (await get(`${admin}?delete=${member}`, cookie)).text();
    expect(confirm).toContain("Delete the field “Club member?”?");
    const refused = await post(`${admin}?index&delete=${member}`, cookie, { intent: "delete", target: member });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("“Membership number” depends on this field; change it first");
    expect((await post(`${admin}?index`, cookie, { intent: "delete", target: entry })).status).toBe(409);

    expect((await post(feeEditor, cookie, editorFields("Membership number"))).status).toBe(302);
    const deleted = await post(`${admin}?index`, cookie, { intent: "delete", target: member });
    expect(deleted.headers.get("Location")).toBe(`${admin}?saved=deleted`);
    expect(await order(registration.id)).toEqual(["Membership number", "Entry", "Discount code"]);
  });

  it("sets a field's key (unique in the form) and a membership field's member class", async () => {
    const { registration, cookie, admin } = await formWithUser();
    const given = await addField(admin, cookie, "text", "Prénom");
    const family = await addField(admin, cookie, "text", "Nom");
    const membership = await addField(admin, cookie, "membership", "Membership");
    const badKey = await post(`${admin}/elements/${given}`, cookie, editorFields("Prénom", { logic_key: "First Name" }));
    expect(badKey.status).toBe(400);
    expect(fieldError(await badKey.text(), "logic_key")).toBe("Use lowercase letters, digits and underscores, starting with a letter");
    expect((await post(`${admin}/elements/${given}`, cookie, editorFields("Prénom", { logic_key: "first_name" }))).status).toBe(302);
    const taken = await post(`${admin}/elements/${family}`, cookie, editorFields("Nom", { logic_key: "first_name" }));
    expect(fieldError(await taken.text(), "logic_key")).toBe("Another field of this form has this key");
    expect((await post(`${admin}/elements/${family}`, cookie, editorFields("Nom", { logic_key: "last_name" }))).status).toBe(302);
    const editor = await (await get(`${admin}/elements/${membership}`, cookie)).text();
    expect(editor).toContain('<option value="SDP_jackrabbit">Jackrabbit (SDP)</option>');
    expect((await post(`${admin}/elements/${membership}`, cookie, editorFields("Membership", { member_class: "racing" }))).status).toBe(302);
    const stored = await listElements(db(), registration.id);
    expect(stored.map((e) => [e.caption, e.logic_key ?? null, e.member_class ?? null])).toEqual([
      ["Prénom", "first_name", null],
      ["Nom", "last_name", null],
      ["Membership", null, "racing"],
    ]);
    // An empty key clears it.
    expect((await post(`${admin}/elements/${family}`, cookie, editorFields("Nom", { logic_key: "" }))).status).toBe(302);
    expect((await listElements(db(), registration.id)).find((e) => e.id === family)!.logic_key).toBeNull();
  });

  it("reorders with Move down and with a dropped position", async () => {
    const { registration, cookie, admin } = await formWithUser();
    const a = await addField(admin, cookie, "heading", "A");
    await addField(admin, cookie, "text", "B");
    const c = await addField(admin, cookie, "number", "C");
    const down = await post(`${admin}?index`, cookie, { intent: "move", target: a, direction: "down" });
    expect(down.headers.get("Location")).toBe(`${admin}?saved=moved`);
    expect(await order(registration.id)).toEqual(["B", "A", "C"]);
    expect((await post(`${admin}?index`, cookie, { intent: "move", target: c, toIndex: "0" })).status).toBe(302);
    expect(await order(registration.id)).toEqual(["C", "B", "A"]);
    expect((await post(`${admin}?index`, cookie, { intent: "move", target: crypto.randomUUID(), toIndex: "0" })).status).toBe(409);
  });

  it("refuses a save over a change someone else made after the editor opened, but not over a move", async () => {
    const { registration, cookie, admin } = await formWithUser();
    const name = await addField(admin, cookie, "text", "Name");
    await addField(admin, cookie, "text", "Club");
    const openedAt = (html: string) => /name="opened_at" value="(\d+)"/.exec(html)![1]!;
    // Two organisers open the same field; the first saves, then the second saves what their older page showed.
    const first = openedAt(await (await get(`${admin}/elements/${name}`, cookie)).text());
    const second = first;
    expect((await post(`${admin}/elements/${name}`, cookie, editorFields("Full name", { opened_at: first }))).status).toBe(302);
    const refused = await post(`${admin}/elements/${name}`, cookie, editorFields("Name", { opened_at: second }));
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("Someone else changed this field; reload and try again");
    expect(await order(registration.id)).toEqual(["Full name", "Club"]);
    // After a reload the editor opens at the newer change and saves; a move by someone else is no conflict.
    const reloaded = openedAt(await (await get(`${admin}/elements/${name}`, cookie)).text());
    expect(Number(reloaded)).toBeGreaterThan(Number(first));
    expect((await post(`${admin}?index`, cookie, { intent: "move", target: name, direction: "down" })).status).toBe(302);
    expect((await post(`${admin}/elements/${name}`, cookie, editorFields("Given name", { opened_at: reloaded }))).status).toBe(302);
    expect(await order(registration.id)).toEqual(["Club", "Given name"]);
  });

  it("shows a stranger nothing (404) and refuses a read-only user's changes (403)", async () => {
    const { registration, admin } = await formWithUser();
    const stranger = await formWithUser(null);
    expect((await get(admin, stranger.cookie)).status).toBe(404);
    expect((await post(`${admin}?index`, stranger.cookie, { intent: "add", type: "text", caption: "x" })).status).toBe(404);

    const email = `readonly-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await createUserWithPassword(email, PASSWORD, [{ type: "registration_readonly", scope: registration.id }]);
    const cookie = await signIn(HOST, email, PASSWORD);
    const page = await get(admin, cookie);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain("Add a field");
    expect((await post(`${admin}?index`, cookie, { intent: "add", type: "text", caption: "x" })).status).toBe(403);
    expect((await get(`${admin}/settings`, cookie)).status).toBe(403);
    expect((await post(admin, cookie, { intent: "submit" })).status).toBe(403);
  });

  it("saves settings in the club's time zone and checks the order of times", async () => {
    const { club, registration, cookie, admin } = await formWithUser();
    await db().update(clubs).set({ timezone: "America/Toronto" }).where(eq(clubs.id, club.id));
    const settings = (extra: Record<string, string>) => ({
      intent: "save",
      name: "Spring Loppet",
      open_time: "2026-06-01T09:00",
      close_time: "2026-06-30T17:00",
      raise_price_1_time: "",
      raise_price_2_time: "",
      gst_rate: "13",
      age_calc_date: "",
      ...extra,
    });
    const early = await (
      await post(
        `${admin}/settings`,
        cookie,
        settings({
          close_time: "2026-05-01T09:00",
          raise_price_1_time: "2026-06-10T00:00",
          raise_price_2_time: "2026-06-05T00:00",
          age_calc_date: "2026-02-30",
          gst_rate: "120",
        }),
      )
    ).text();
    expect(fieldError(early, "close_time")).toBe("The closing time must be after the opening time");
    expect(fieldError(early, "raise_price_2_time")).toBe("The second price rise must be after the first");
    expect(fieldError(early, "gst_rate")).toBe("Enter a percentage from 0 to 100");
    expect(fieldError(early, "age_calc_date")).toBe("Invalid Date.  Dates should be in the format YYYY-MM-DD");
    const saved = await post(`${admin}/settings`, cookie, settings({ is_bilingual: "on", age_calc_date: "2026-12-31" }));
    expect(saved.headers.get("Location")).toBe(`${admin}/settings?saved=saved`);
    const row = await db().query.registrations.findFirst({ where: eq(registrations.id, registration.id) });
    // 09:00 in Toronto on 1 June is 13:00 UTC (EDT).
    expect(row).toMatchObject({
      openTime: Date.UTC(2026, 5, 1, 13),
      closeTime: Date.UTC(2026, 5, 30, 21),
      gstRate: 13,
      isBilingual: true,
      ageCalcDate: "2026-12-31",
    });
    expect(await (await get(`${admin}/settings`, cookie)).text()).toContain('value="2026-06-01T09:00"');

    // A bilingual form edits a caption's English and French parts.
    const heading = await addField(admin, cookie, "heading", "Welcome");
    expect(
      (
        await post(`${admin}/elements/${heading}`, cookie, {
          intent: "save",
          caption: "Welcome",
          caption_fr: "Bienvenue",
          title: "",
          "condition.element": "",
          "config.text": "Hello",
        })
      ).status,
    ).toBe(302);
    expect((await listElements(db(), registration.id))[0]).toMatchObject({ caption: "[en]Welcome[fr]Bienvenue", config: { text: "Hello" } });
  });

  it("warns when a membership form cannot ask for the member's details", async () => {
    const { cookie, admin } = await formWithUser();
    await addField(admin, cookie, "text", "First name");
    expect(await (await get(admin, cookie)).text()).not.toContain('data-testid="member-gaps"');
    await addField(admin, cookie, "membership", "Membership");
    await addField(admin, cookie, "dob", "Date of birth");
    const page = await (await get(admin, cookie)).text();
    expect(page).toContain("no field asks for the member&#x27;s last name, gender, street address, city, province, postal code.");
  });

  it("names people by the fields chosen in the settings, and keeps the form's tags", async () => {
    const { registration, cookie, admin } = await formWithUser();
    const given = await addField(admin, cookie, "text", "Prénom");
    const family = await addField(admin, cookie, "text", "Nom");
    const heading = await addField(admin, cookie, "heading", "About you");
    const settings = (extra: Record<string, string>) => ({
      intent: "save",
      name: "Spring Loppet",
      open_time: "",
      close_time: "",
      raise_price_1_time: "",
      raise_price_2_time: "",
      gst_rate: "0",
      age_calc_date: "",
      ...extra,
    });
    const page = await (await get(`${admin}/settings`, cookie)).text();
    expect(page).toContain(`<option value="${given}">Prénom</option>`);
    expect(page).not.toContain(`<option value="${heading}">`);
    const refused = await (await post(`${admin}/settings`, cookie, settings({ first_name_field_id: heading, last_name_field_id: crypto.randomUUID() }))).text();
    expect(fieldError(refused, "first_name_field_id")).toBe("Choose a text field of this form");
    expect(fieldError(refused, "last_name_field_id")).toBe("Choose a text field of this form");
    const saved = await post(
      `${admin}/settings`,
      cookie,
      settings({ first_name_field_id: given, last_name_field_id: family, tags: " loppet, 2027,,loppet , youth " }),
    );
    expect(saved.status).toBe(302);
    const row = await db().query.registrations.findFirst({ where: eq(registrations.id, registration.id) });
    expect(row).toMatchObject({ firstNameFieldId: given, lastNameFieldId: family, tags: ["loppet", "2027", "youth"] });
    expect(await (await get(`${admin}/settings`, cookie)).text()).toContain('value="loppet, 2027, youth"');
  });

  it("saves what registrants are called, in English and, on a bilingual form, French", async () => {
    const { registration, cookie, admin } = await formWithUser();
    const settings = (extra: Record<string, string>) => ({
      intent: "save",
      name: "Spring Loppet",
      open_time: "",
      close_time: "",
      raise_price_1_time: "",
      raise_price_2_time: "",
      gst_rate: "0",
      age_calc_date: "",
      ...extra,
    });
    const stored = async () => (await db().query.registrations.findFirst({ where: eq(registrations.id, registration.id) }))!.peopleLabels;
    // French inputs show only on a bilingual form.
    expect(await (await get(`${admin}/settings`, cookie)).text()).not.toContain('<label for="people_label_singular_fr"');
    const refused = await (
      await post(`${admin}/settings`, cookie, settings({ people_label_singular: "[fr]racer", people_label_plural: "r".repeat(41) }))
    ).text();
    expect(fieldError(refused, "people_label_singular")).toBe("Square brackets are not allowed");
    expect(fieldError(refused, "people_label_plural")).toBe("At most 40 characters");
    expect(await stored()).toEqual({});
    expect(
      (
        await post(
          `${admin}/settings`,
          cookie,
          settings({ is_bilingual: "on", people_label_singular: " racer ", people_label_plural: "racers", people_label_singular_fr: "coureur" }),
        )
      ).status,
    ).toBe(302);
    expect(await stored()).toEqual({ singular: "[en]racer[fr]coureur", plural: "racers" });
    const page = await (await get(`${admin}/settings`, cookie)).text();
    expect(page).toContain('value="coureur"');
    // Saving without the bilingual switch keeps the French words, ready for when it is switched back on.
    expect(
      (
        await post(
          `${admin}/settings`,
          cookie,
          settings({ people_label_singular: "racer", people_label_plural: "racers", people_label_singular_fr: "coureur" }),
        )
      ).status,
    ).toBe(302);
    expect(await stored()).toEqual({ singular: "[en]racer[fr]coureur", plural: "racers" });
  });

  it("submits a form for approval, and a System Administrator sends it back and approves it", async () => {
    const { registration, cookie, admin } = await formWithUser();
    expect((await post(admin, cookie, { intent: "submit", note: "Ready for review" })).headers.get("Location")).toBe(`${admin}?saved=submitted`);
    const pending = await (await get(`${admin}?saved=submitted`, cookie)).text();
    expect(pending).toContain('data-testid="registration-status">Pending Approval<');
    expect(pending).not.toContain("Submit for approval");

    const superCookie = await reviewer();
    const queue = await (await get("/_admin/registrations", superCookie, ADMIN_HOST)).text();
    expect(queue).toContain("Spring Loppet");
    expect(queue).toContain("Ready for review");
    const noNote = await post("/_admin/registrations", superCookie, { intent: "requireChanges", target: registration.id, note: "" }, ADMIN_HOST);
    expect(fieldError(await noNote.text(), `note-${registration.id}`)).toBe("Say what should change");
    expect(
      (await post("/_admin/registrations", superCookie, { intent: "requireChanges", target: registration.id, note: "Add a refund policy" }, ADMIN_HOST)).status,
    ).toBe(302);
    const sentBack = await (await get(admin, cookie)).text();
    expect(sentBack).toContain('data-testid="registration-status">Changes Required<');
    expect(sentBack).toContain("Add a refund policy");
    expect(sentBack).toContain("Submit for approval");

    expect((await post(admin, cookie, { intent: "submit" })).status).toBe(302);
    const approved = await post("/_admin/registrations", superCookie, { intent: "approve", target: registration.id, note: "" }, ADMIN_HOST);
    expect(approved.headers.get("Location")).toBe("/_admin/registrations?saved=approve");
    expect(await (await get(admin, cookie)).text()).toContain('data-testid="registration-status">Live Mode<');
    expect(await (await get("/_admin/registrations?saved=approve", superCookie, ADMIN_HOST)).text()).toContain("No forms are waiting for approval.");

    // A club's own admin may not review on the admin host.
    const clubAdmin = `clubadmin-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await createUserWithPassword(clubAdmin, PASSWORD, [{ type: "org_admin", clubId: registration.clubId }]);
    expect((await get("/_admin/registrations", await signIn(ADMIN_HOST, clubAdmin, PASSWORD), ADMIN_HOST)).status).toBe(403);
  });

  it("records every builder change in the form's and its fields' history, naming the organiser", async () => {
    const { registration, cookie, admin } = await formWithUser();
    const first = await addField(admin, cookie, "text", "Team name");
    const second = await addField(admin, cookie, "text", "Coach");
    expect((await post(`${admin}/elements/${first}`, cookie, editorFields("Team or club name"))).status).toBe(302);
    expect((await post(`${admin}?index`, cookie, { intent: "move", target: first, direction: "down" })).status).toBe(302);
    expect((await post(`${admin}?index`, cookie, { intent: "delete", target: second })).status).toBe(302);
    const history = await historyOf(db(), FormElement, first);
    const organiser = history[0]!.userId;
    expect(organiser).toEqual(expect.any(String));
    expect(history.map((h) => [h.kind, h.field])).toEqual(
      expect.arrayContaining([
        ["created", "*"],
        ["changed", "caption"],
        ["changed", "ordinal"],
      ]),
    );
    expect(history.find((h) => h.field === "caption")).toMatchObject({ oldValue: "Team name", newValue: "Team or club name", userId: organiser });
    const [removed] = await historyOf(db(), FormElement, second);
    expect(removed).toMatchObject({
      kind: "deleted",
      oldValue: expect.objectContaining({ caption: "Coach", registration: registration.id }),
      userId: organiser,
    });
  });
});
