// Race links by option, racer field mapping and the club's tax number (issue 24, decision 0058): a form's
// options each enter a person in their own race; a changed option moves the racer once; the form's answers fill
// the racer fields the organiser mapped; the settings page and the data API refuse the same bad link in the
// same words; the receipt names the club's GST/HST number.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { initialMtimes } from "../../core/entity/field-mtimes";
import { TAX_NUMBER_MESSAGE } from "../../core/payments/tax-number";
import { cartChanges, clubs, formElements, individuals, races, registrations } from "../../schema/d1";
import { RACER_SYNC_MESSAGES } from "../../workers/services/race-links";
import { syncRegistrationRacers } from "../../workers/services/registration-racers";
import { cookieFrom, createUserWithPassword, db, latestMailWithSubject, pagePost, signIn, worker } from "./auth-fixtures";
import { hostRequest } from "./fixtures";
import { createApp, issueToken } from "./oauth-fixtures";
import { createForm, get, post } from "./registration-fixtures";
import { setUpTimedRoom } from "./timing-fixtures";
import { everyRacer } from "../../workers/services/race-racers";

const PASSWORD = "glacier-ski-42";
type Room = Awaited<ReturnType<typeof setUpTimedRoom>>["room"];

/** A form of a club with two races (A and B; B has a "T-shirt size" racer field), gender and birth date fields, and a signed-in organiser. */
async function twoRaceForm(options: { pricedDistance?: boolean } = {}) {
  const f = await createForm({ isStripe: false });
  const base = { registrationId: f.registration.id, clubId: f.club.id, siteId: f.site.id, fieldMtimes: {} };
  const extra = { gender: crypto.randomUUID(), dob: crypto.randomUUID(), shirt: crypto.randomUUID() };
  await db()
    .insert(formElements)
    .values({ ...base, id: extra.gender, type: "gender", caption: "Gender", ordinal: 9 });
  await db()
    .insert(formElements)
    .values({ ...base, id: extra.dob, type: "dob", caption: "Date of birth", ordinal: 10 });
  await db()
    .insert(formElements)
    .values({ ...base, id: extra.shirt, type: "text", caption: "Shirt", ordinal: 11 });
  if (options.pricedDistance === false) {
    // Every distance costs the same (the form's fee is elsewhere), so a registrant may change it after checkout.
    const free = [
      { id: "5k", display: "5 km" },
      { id: "10k", display: "10 km" },
    ];
    await db().update(formElements).set({ optionsList: free }).where(eq(formElements.id, f.ids.distance));
  }
  const rooms: { race: typeof races.$inferSelect; room: Room; course: { id: string } }[] = [];
  for (const name of ["Race A", "Race B"]) {
    const race = { id: crypto.randomUUID(), clubId: f.club.id, siteId: f.site.id, name, startTime: Date.now() + 86_400_000, timezone: "America/Toronto" };
    await db()
      .insert(races)
      .values({ ...race, fieldMtimes: initialMtimes(race, Date.now()) });
    const set = await setUpTimedRoom(race, { racers: 0 });
    rooms.push({ race: race as typeof races.$inferSelect, room: set.room, course: set.course });
  }
  const fields = [{ key: "tshirt", display: "T-shirt size", type: "text" }];
  expect((await rooms[1]!.room.updateSettings({ fields_list: fields })).ok).toBe(true);
  const email = `links-${crypto.randomUUID().slice(0, 8)}@example.com`;
  await createUserWithPassword(email, PASSWORD, [{ type: "all_registrations", clubId: f.club.id }]);
  const organiser = await signIn("localhost", email, PASSWORD);
  return { f, extra, a: rooms[0]!, b: rooms[1]!, organiser, settings: `/registration/${f.registration.id}/admin/settings` };
}

type Setup = Awaited<ReturnType<typeof twoRaceForm>>;

const saveLinks = (s: Setup, fields: Record<string, string>) => pagePost("localhost", s.settings, { intent: "race", ...fields }, s.organiser);

/** Links the form's Distance field (first choosing the field, as the page does): 5 km to race A, 10 km to race B; the form's own race is A. */
async function linkDistances(s: Setup, extra: Record<string, string> = {}) {
  const [saved] = await db().select().from(registrations).where(eq(registrations.id, s.f.registration.id));
  if (!saved!.raceOptionField) expect((await saveLinks(s, { race: s.a.race.id, option_field: s.f.ids.distance })).status).toBe(302);
  const reply = await saveLinks(s, {
    race: s.a.race.id,
    option_field: s.f.ids.distance,
    "option.5k.race": s.a.race.id,
    "option.10k.race": s.b.race.id,
    ...extra,
  });
  expect(reply.status, await reply.clone().text()).toBe(302);
}

async function registerTwo(s: Setup) {
  const { f, extra } = s;
  const first = await post(f.host, f.path, {
    intent: "save-person",
    [f.ids.first]: "Ada",
    [f.ids.last]: "Lovelace",
    [f.ids.distance]: "5k",
    [extra.gender]: "F",
    [extra.dob]: "1990-12-10",
  });
  const cookie = cookieFrom(first, `sl_cart_${f.registration.id.replaceAll("-", "")}`)!;
  await post(
    f.host,
    f.path,
    { intent: "save-person", [f.ids.first]: "Grace", [f.ids.last]: "Hopper", [f.ids.distance]: "10k", [extra.gender]: "O", [extra.shirt]: "Large" },
    cookie,
  );
  expect((await post(f.host, `${f.path}/cart`, { intent: "continue", email: "ada@example.com" }, cookie)).status).toBe(302);
  expect((await post(f.host, `${f.path}/pay`, { intent: "manual" }, cookie)).status).toBe(302);
  return cookie;
}

const entered = async (room: Room) => (await everyRacer(room)).filter((r) => r.data.imported_from?.startsWith("registration:"));

describe("race links by option", { timeout: 60_000 }, () => {
  it("enters each person of one cart in the race of the option they chose, with the mapped fields converted", async () => {
    const s = await twoRaceForm();
    await linkDistances(s);
    // Race B's own racer field is offered once B is linked; the form's "Shirt" fills it.
    await linkDistances(s, { "map.custom:tshirt": s.extra.shirt });
    const page = await (await worker.fetch(hostRequest("localhost", s.settings, { headers: { Cookie: s.organiser } }))).text();
    expect(page).toContain("Races by option");
    expect(page).toContain("Found: Gender");
    await registerTwo(s);
    await expect.poll(async () => (await entered(s.a.room)).length + (await entered(s.b.room)).length, { timeout: 10_000 }).toBe(2);
    const [ada] = await entered(s.a.room);
    const [grace] = await entered(s.b.room);
    expect(ada!.data).toMatchObject({ first_name: "Ada", last_name: "Lovelace", sex: "F", dob: "1990-12-10", bib: 1 });
    // Other is not a racer's sex: left unset. The shirt fills race B's own T-shirt field, as the organiser mapped it.
    expect(grace!.data).toMatchObject({ first_name: "Grace", sex: null, custom: { tshirt: "Large" } });
    // Re-sync changes nothing more.
    expect(await syncRegistrationRacers(env, db(), s.f.registration.id, null)).toEqual({ ok: true, created: 0, updated: 0, removed: 0 });
  });

  it("moves a racer once when the registrant changes their option after checkout, even when the change is sent twice", async () => {
    const s = await twoRaceForm({ pricedDistance: false });
    await linkDistances(s);
    const cookie = await registerTwo(s);
    await expect.poll(async () => (await entered(s.a.room)).length, { timeout: 10_000 }).toBe(1);
    const [ada] = await db().select().from(individuals).where(eq(individuals.registrationId, s.f.registration.id));
    const person = (await db().select().from(individuals).where(eq(individuals.registrationId, s.f.registration.id))).find(
      (p) => p.values[s.f.ids.first]?.v === "Ada",
    )!;
    expect(ada).toBeTruthy();
    const change = {
      intent: "change",
      kind: "edit",
      person: person.id,
      request_id: crypto.randomUUID(),
      [s.f.ids.first]: "Ada",
      [s.f.ids.last]: "Lovelace",
      [s.f.ids.distance]: "10k",
      [s.extra.gender]: "F",
      [s.extra.dob]: "1990-12-10",
    };
    const replies = await Promise.all([post(s.f.host, `${s.f.path}/receipt`, change, cookie), post(s.f.host, `${s.f.path}/receipt`, change, cookie)]);
    expect(replies.map((r) => r.status)).toEqual([302, 302]);
    expect(await db().select().from(cartChanges).where(eq(cartChanges.registrationId, s.f.registration.id))).toHaveLength(1);
    // One sync enters B and empties A, race by race: wait for both.
    await expect
      .poll(async () => [(await entered(s.b.room)).map((r) => r.data.first_name).sort(), (await entered(s.a.room)).length], { timeout: 10_000 })
      .toEqual([["Ada", "Grace"], 0]);
    // Once moved, repeating the sync (the organiser's Re-sync, a retried job) moves nothing again.
    expect(await syncRegistrationRacers(env, db(), s.f.registration.id, null)).toEqual({ ok: true, created: 0, updated: 0, removed: 0 });
    expect((await db().select().from(individuals).where(eq(individuals.id, person.id)))[0]!.racerPlace).toEqual({
      race: s.b.race.id,
      course: null,
      start_group: null,
    });
  });

  it("a link changed by the organiser moves the people on Re-sync, and the same course lands them there", async () => {
    const s = await twoRaceForm();
    await linkDistances(s);
    await registerTwo(s);
    await expect.poll(async () => (await entered(s.b.room)).length, { timeout: 10_000 }).toBe(1);
    // 10 km now goes to race A, course "10 km": the course select appears once the race is saved.
    await linkDistances(s, { "option.10k.race": s.a.race.id });
    await linkDistances(s, { "option.10k.race": s.a.race.id, "option.10k.course": s.a.course.id });
    expect((await pagePost("localhost", s.settings, { intent: "resync" }, s.organiser)).status).toBe(302);
    expect(await entered(s.b.room)).toEqual([]);
    const inA = await entered(s.a.room);
    expect(inA.map((r) => [r.data.first_name, r.data.course])).toEqual([
      ["Ada", null],
      ["Grace", s.a.course.id],
    ]);
  });
});

describe("a chip typed on the form that another racer holds", { timeout: 60_000 }, () => {
  it("enters the person without it, for the organiser to sort out, and a re-sync changes nothing", async () => {
    const s = await twoRaceForm();
    const chipField = crypto.randomUUID();
    await db().insert(formElements).values({
      id: chipField,
      registrationId: s.f.registration.id,
      clubId: s.f.club.id,
      siteId: s.f.site.id,
      fieldMtimes: {},
      type: "text",
      caption: "Chip",
      ordinal: 12,
    });
    expect((await s.a.room.saveRacer(null, { first_name: "Old", last_name: "Timer", chip: "C1" })).ok).toBe(true);
    await linkDistances(s);
    const first = await post(s.f.host, s.f.path, {
      intent: "save-person",
      [s.f.ids.first]: "Ada",
      [s.f.ids.last]: "Chip",
      [s.f.ids.distance]: "5k",
      [chipField]: "C1",
    });
    const cookie = cookieFrom(first, `sl_cart_${s.f.registration.id.replaceAll("-", "")}`)!;
    await post(s.f.host, `${s.f.path}/cart`, { intent: "continue", email: "chip@example.com" }, cookie);
    expect((await post(s.f.host, `${s.f.path}/pay`, { intent: "manual" }, cookie)).status).toBe(302);
    await expect.poll(async () => (await entered(s.a.room)).map((r) => [r.data.last_name, r.data.chip]), { timeout: 10_000 }).toEqual([["Chip", null]]);
    expect(await syncRegistrationRacers(env, db(), s.f.registration.id, null)).toEqual({ ok: true, created: 0, updated: 0, removed: 0 });
  });
});

describe("refusing a bad link: the page and the data API in the same words", { timeout: 60_000 }, () => {
  it("refuses another club's race, a course of another race, and a field that is not a choice", async () => {
    const s = await twoRaceForm();
    const other = await twoRaceForm();
    await linkDistances(s);
    const foreign = await saveLinks(s, { race: other.a.race.id });
    expect(foreign.status).toBe(409);
    expect(await foreign.text()).toContain(RACER_SYNC_MESSAGES.raceGone);
    const wrongCourse = await saveLinks(s, {
      race: s.a.race.id,
      option_field: s.f.ids.distance,
      "option.5k.race": s.a.race.id,
      "option.10k.race": s.b.race.id,
      "option.10k.course": s.a.course.id,
    });
    expect(wrongCourse.status).toBe(409);
    expect(await wrongCourse.text()).toContain(RACER_SYNC_MESSAGES.notThisRace);
    const notChoice = await saveLinks(s, { race: s.a.race.id, option_field: s.f.ids.first });
    expect(notChoice.status).toBe(409);
    expect(await notChoice.text()).toContain(RACER_SYNC_MESSAGES.notChoiceField);
    // Garbage: an overlong id is no race of the club; unknown names are ignored; never a 500.
    const garbage = await saveLinks(s, { race: "x".repeat(5000), "option.nope.race": "zzz", "map.nothing": "x" });
    expect(garbage.status).toBe(409);
    expect(await garbage.text()).toContain(RACER_SYNC_MESSAGES.raceGone);

    const email = `api-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const user = await createUserWithPassword(email, null, [{ type: "org_admin", clubId: s.f.club.id }]);
    const appId = await createApp({ scopes: "registrations clubs" });
    const token = await issueToken(user.id, appId, "localhost", "registrations clubs");
    const call = (classname: string, id: string, body: unknown) =>
      worker.fetch(
        hostRequest("localhost", `/data-api/${classname}/${id}/`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    const apiForeign = await call("Registration", s.f.registration.id, { race: other.a.race.id });
    expect(apiForeign.status).toBe(400);
    expect(await apiForeign.json()).toMatchObject({ fields: { race: RACER_SYNC_MESSAGES.raceGone } });
    const apiCourse = await call("Registration", s.f.registration.id, {
      race_option_field: s.f.ids.distance,
      race_option_links: [{ option: "10k", race: s.b.race.id, course: s.a.course.id }],
    });
    expect(apiCourse.status).toBe(400);
    expect(await apiCourse.json()).toMatchObject({ fields: { race_option_links: RACER_SYNC_MESSAGES.notThisRace } });
    const apiGarbage = await call("Registration", s.f.registration.id, { race_option_links: "everything" });
    expect(apiGarbage.status).toBe(400);
    const good = await call("Registration", s.f.registration.id, {
      race_option_field: s.f.ids.distance,
      race_option_links: [
        { option: "5k", race: s.a.race.id },
        { option: "10k", race: s.b.race.id, course: s.b.course.id },
      ],
    });
    expect(good.status, await good.clone().text()).toBe(200);
    const [stored] = await db().select().from(registrations).where(eq(registrations.id, s.f.registration.id));
    expect(stored!.raceOptionLinks).toEqual([
      { option: "5k", race: s.a.race.id, course: null, start_group: null },
      { option: "10k", race: s.b.race.id, course: s.b.course.id, start_group: null },
    ]);

    // The club's tax number: refused when malformed, written one way when not, in the API and on the club's page.
    const badTax = await call("Club", s.f.club.id, { tax_number: "GST 12345" });
    expect(badTax.status).toBe(400);
    expect(JSON.stringify(await badTax.json())).toContain(TAX_NUMBER_MESSAGE);
    expect((await call("Club", s.f.club.id, { tax_number: "123456789rt0001" })).status).toBe(200);
    const [club] = await db().select().from(clubs).where(eq(clubs.id, s.f.club.id));
    expect(club!.taxNumber).toBe("123456789 RT0001");
  });
});

describe("the club's GST/HST number on the receipt", { timeout: 60_000 }, () => {
  it("shows on the tax line of the receipt page, in each language's words", async () => {
    const s = await twoRaceForm();
    await db().update(clubs).set({ taxNumber: "123456789 RT0001" }).where(eq(clubs.id, s.f.club.id));
    const person = {
      intent: "save-person",
      [s.f.ids.first]: "Ada",
      [s.f.ids.last]: "L",
      [s.f.ids.distance]: "5k",
      [s.f.ids.toque]: "on",
      [s.f.ids.colour]: "red",
    };
    await db().update(registrations).set({ isBilingual: true }).where(eq(registrations.id, s.f.registration.id));
    const first = await post(s.f.host, s.f.path, person);
    expect(first.status).toBe(302);
    const cookie = cookieFrom(first, `sl_cart_${s.f.registration.id.replaceAll("-", "")}`)!;
    expect((await post(s.f.host, `${s.f.path}/cart`, { intent: "continue", email: "tax-en@example.com" }, cookie)).status).toBe(302);
    expect((await post(s.f.host, `${s.f.path}/pay`, { intent: "manual" }, cookie)).status).toBe(302);
    const receipt = await (await get(s.f.host, `${s.f.path}/receipt`, cookie)).text();
    expect(receipt).toContain("Tax (13%), GST/HST no.: 123456789 RT0001");
    await expect
      .poll(async () => (await latestMailWithSubject("tax-en@example.com", "Registration confirmed: Spring Relay"))?.text ?? "", { timeout: 10_000 })
      .toContain("  Tax (13%), GST/HST no.: 123456789 RT0001: $2.60");
    const french = await (await get(s.f.host, `${s.f.path}/receipt?lang=fr`, cookie)).text();
    expect(french).toContain("No de TPS/TVH : 123456789 RT0001");
    // Without a number the line is the rate alone, as before.
    await db().update(clubs).set({ taxNumber: null }).where(eq(clubs.id, s.f.club.id));
    expect(await (await get(s.f.host, `${s.f.path}/receipt`, cookie)).text()).not.toContain("GST/HST no.");
  });
});

describe("race links by a multi-choice field (decision 0061)", { timeout: 60_000 }, () => {
  it("enters a person in the race of each option they chose, once however often it syncs, and takes them out of one they drop", async () => {
    const s = await twoRaceForm({ pricedDistance: false });
    await db().update(formElements).set({ type: "multioption", caption: "Events" }).where(eq(formElements.id, s.f.ids.distance));
    await linkDistances(s);
    const page = await (await worker.fetch(hostRequest("localhost", s.settings, { headers: { Cookie: s.organiser } }))).text();
    expect(page).toContain("Events");
    // The data API takes the same multi-choice field through the same rule, and refuses a field that is no choice.
    const user = await createUserWithPassword(`multi-${crypto.randomUUID().slice(0, 8)}@example.com`, null, [{ type: "org_admin", clubId: s.f.club.id }]);
    const token = await issueToken(user.id, await createApp({ scopes: "registrations" }), "localhost", "registrations");
    const api = (body: unknown) =>
      worker.fetch(
        hostRequest("localhost", `/data-api/Registration/${s.f.registration.id}/`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    const links = [
      { option: "5k", race: s.a.race.id, course: null, start_group: null },
      { option: "10k", race: s.b.race.id, course: null, start_group: null },
    ];
    expect((await api({ race_option_field: s.f.ids.distance, race_option_links: links })).status).toBe(200);
    const notChoice = await api({ race_option_field: s.f.ids.first, race_option_links: [] });
    expect(notChoice.status).toBe(400);
    expect(JSON.stringify(await notChoice.json())).toContain(RACER_SYNC_MESSAGES.notChoiceField);
    const added = await post(s.f.host, s.f.path, [
      ["intent", "save-person"],
      [s.f.ids.first, "Ada"],
      [s.f.ids.last, "Lovelace"],
      [s.f.ids.distance, "5k"],
      [s.f.ids.distance, "10k"],
    ] as unknown as Record<string, string>);
    expect(added.status).toBe(302);
    const cookie = cookieFrom(added, `sl_cart_${s.f.registration.id.replaceAll("-", "")}`)!;
    expect((await post(s.f.host, `${s.f.path}/cart`, { intent: "continue", email: "multi@example.com" }, cookie)).status).toBe(302);
    expect((await post(s.f.host, `${s.f.path}/pay`, { intent: "manual" }, cookie)).status).toBe(302);
    await expect.poll(async () => [(await entered(s.a.room)).length, (await entered(s.b.room)).length], { timeout: 10_000 }).toEqual([1, 1]);
    expect((await entered(s.a.room))[0]!.data).toMatchObject({ first_name: "Ada" });
    expect((await entered(s.b.room))[0]!.data).toMatchObject({ first_name: "Ada" });
    expect(await syncRegistrationRacers(env, db(), s.f.registration.id, null)).toEqual({ ok: true, created: 0, updated: 0, removed: 0 });

    // She drops the 10 km after checkout: her racer leaves race B and stays in race A.
    const [person] = await db().select().from(individuals).where(eq(individuals.registrationId, s.f.registration.id));
    const change = await post(
      s.f.host,
      `${s.f.path}/receipt`,
      {
        intent: "change",
        kind: "edit",
        person: person!.id,
        request_id: crypto.randomUUID(),
        [s.f.ids.first]: "Ada",
        [s.f.ids.last]: "Lovelace",
        [s.f.ids.distance]: "5k",
      },
      cookie,
    );
    expect(change.status).toBe(302);
    await expect.poll(async () => [(await entered(s.a.room)).length, (await entered(s.b.room)).length], { timeout: 10_000 }).toEqual([1, 0]);
  });
});
