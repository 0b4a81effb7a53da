import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { carts, individuals, registrations } from "../../schema/d1";
import { parseApiList } from "../../schema/wire/api-list";
import { db, createUserWithPassword, worker } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { createApp, issueToken } from "./oauth-fixtures";
import { newElement } from "../../core/forms/model";
import { checkElement, listElements } from "../../workers/services/registration-forms";

const HOST = "localhost";

function call(token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { Authorization: `Bearer ${token}`, ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["Content-Type"] = "application/json";
  }
  return worker.fetch(hostRequest(HOST, path, init));
}

/** A club with an Organization Admin whose app token carries `scopes`. */
async function clubAdmin(tag: string, scopes = "registrations races clubs") {
  const { club, site, race } = await createSiteWithRace(db(), { hostname: `${tag}.localhost`, siteName: tag, raceName: `${tag} race` });
  const user = await createUserWithPassword(`${tag}@example.com`, null, [{ type: "org_admin", clubId: club.id }]);
  const appId = await createApp({ scopes });
  const token = await issueToken(user.id, appId, HOST, scopes);
  return { club, site, race, user, appId, token };
}

async function createRegistration(token: string, clubId: string, fields: Record<string, unknown> = {}) {
  const response = await call(token, "PUT", "/data-api/Registration/", { club: clubId, name: "Spring 10K", ...fields });
  expect(response.status).toBe(201);
  const location = response.headers.get("Location")!;
  return { id: location.split("/").pop()!, location, body: await response.json<Record<string, unknown>>() };
}

describe("entity API: create, read as a tree, list", () => {
  it("creates with PUT, gives the id in Location, and reads back a tree with child collections", async () => {
    const { token, club, site } = await clubAdmin("tree");
    const registration = await createRegistration(token, club.id, { gst_rate: 13, tags: ["road"] });
    expect(registration.location).toBe(`/data-api/Registration/${registration.id}`);
    expect(registration.body).toMatchObject({
      classname: "Registration",
      uuid: registration.id,
      club: club.id,
      site: site.id,
      name: "Spring 10K",
      gst_rate: 13,
      tags: ["road"],
      is_approved: false,
    });
    const element = await call(token, "PUT", "/data-api/FormElement/", { registration: registration.id, type: "text", caption: "Team name", ordinal: 2 });
    expect(element.status).toBe(201);
    const tree = await (await call(token, "GET", `/data-api/Registration/${registration.id}`)).json<Record<string, unknown>>();
    expect(tree).toMatchObject({ classname: "Registration", uuid: registration.id });
    expect(tree.formelements).toEqual([
      expect.objectContaining({ classname: "FormElement", caption: "Team name", registration: registration.id, club: club.id }),
    ]);
    expect(Object.keys(tree.field_mtimes as object)).toEqual(expect.arrayContaining(["name", "club", "gst_rate"]));
  });

  it("lists as JSON with default limit 100 and offset 0, and as a typed CSV list that parses back", async () => {
    const { token, club } = await clubAdmin("lister");
    await createRegistration(token, club.id, { name: 'Relay, "Team" edition', tags: ["a", "b"], open_time: 1_800_000_000_000 });
    await createRegistration(token, club.id, { name: "Zed" });
    const page = await (
      await call(token, "GET", "/data-api/Registration/")
    ).json<{ total: number; limit: number; offset: number; items: Record<string, unknown>[] }>();
    expect(page).toMatchObject({ total: 2, limit: 100, offset: 0 });
    const csv = await call(token, "GET", "/data-api/Registration/?sort=-name", undefined, { Accept: "text/x-z4-api-list" });
    expect(csv.headers.get("Content-Type")).toContain("text/x-z4-api-list");
    expect(csv.headers.get("X-Total-Count")).toBe("2");
    const text = await csv.text();
    expect(text.split("\r\n")[0]).toMatch(/^uuid:string,created_time:time,club:string,site:string,name:string,is_approved:bool/);
    const list = parseApiList(text);
    expect(list.rows.map((row) => row.name)).toEqual(["Zed", 'Relay, "Team" edition']);
    expect(list.rows[0]).toMatchObject({ approval_status: "", sport: null });
    expect(list.rows[1]).toMatchObject({ tags: ["a", "b"], open_time: 1_800_000_000_000, is_approved: false, close_time: null });
    const json = page.items.find((item) => item.name === 'Relay, "Team" edition')!;
    expect(list.rows[1]).toEqual(Object.fromEntries(Object.entries(json).filter(([key]) => key !== "classname")));
  });

  it("pages with limit and offset and refuses an oversized or malformed limit", async () => {
    const { token, club } = await clubAdmin("pager");
    for (const name of ["A", "B", "C"]) await createRegistration(token, club.id, { name });
    const second = await (await call(token, "GET", "/data-api/Registration/?limit=1&offset=1&sort=name")).json<{ items: { name: string }[]; total: number }>();
    expect(second.items.map((i) => i.name)).toEqual(["B"]);
    expect(second.total).toBe(3);
    for (const bad of ["limit=10001", "limit=0", "limit=-1", "limit=1e3", "offset=-5", "limit=abc"]) {
      const response = await call(token, "GET", `/data-api/Registration/?${bad}`);
      expect(response.status, bad).toBe(400);
    }
    expect((await call(token, "GET", "/data-api/Registration/?limit=10000")).status).toBe(200);
  });
});

describe("entity API: filters", () => {
  it("applies typed filters: equality, contains, comparisons, one-of and null", async () => {
    const { token, club } = await clubAdmin("filters");
    const spring = await createRegistration(token, club.id, { name: "Spring 10K, Road", open_time: 100 });
    await createRegistration(token, club.id, { name: "Summer Trail", open_time: 200 });
    await createRegistration(token, club.id, { name: "Autumn 100%" });
    // Only a reviewer approves a form, so the approved one is set up in the database.
    await db().update(registrations).set({ isApproved: true }).where(eq(registrations.id, spring.id));
    const names = async (filters: string) => {
      const response = await call(token, "GET", `/data-api/Registration/?sort=name&filters=${encodeURIComponent(filters)}`);
      expect(response.status, filters).toBe(200);
      return (await response.json<{ items: { name: string }[] }>()).items.map((i) => i.name);
    };
    expect(await names("is_approved=true")).toEqual(["Spring 10K, Road"]);
    expect(await names('"name~10k, road"')).toEqual(["Spring 10K, Road"]);
    expect(await names("open_time>=150")).toEqual(["Summer Trail"]);
    expect(await names("open_time=")).toEqual(["Autumn 100%"]);
    expect(await names("name~100%")).toEqual(["Autumn 100%"]);
    expect(await names("name~%")).toEqual(["Autumn 100%"]);
    expect(await names("name^summer,is_approved=false")).toEqual(["Summer Trail"]);
    expect(await names("name@Summer Trail|Autumn 100%")).toEqual(["Autumn 100%", "Summer Trail"]);
  });

  it("treats SQL in filter values as plain text and keeps the table intact", async () => {
    const { token, club } = await clubAdmin("inject");
    await createRegistration(token, club.id, { name: "Safe" });
    for (const attack of ["name=x' OR '1'='1", "name~'; DROP TABLE registrations; --", '"name="") OR 1=1 --"']) {
      const response = await call(token, "GET", `/data-api/Registration/?filters=${encodeURIComponent(attack)}`);
      expect(response.status, attack).toBe(200);
      expect((await response.json<{ total: number }>()).total, attack).toBe(0);
    }
    const field = await call(token, "GET", `/data-api/Registration/?filters=${encodeURIComponent("name) OR (1=1=x")}`);
    expect(field.status).toBe(400);
    const sort = await call(token, "GET", `/data-api/Registration/?sort=${encodeURIComponent("name; DROP TABLE registrations")}`);
    expect(sort.status).toBe(400);
    const count = await db().get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM registrations`);
    expect(count.n).toBeGreaterThan(0);
  });

  it("refuses unknown fields, wrong types, unsuitable operators and malformed CSV with a message", async () => {
    const { token } = await clubAdmin("badfilter");
    const cases: [string, string][] = [
      ["password_hash=x", "Unknown filter field 'password_hash'"],
      ["open_time>soon", "Filter value for open_time must be a whole number"],
      ["is_approved=maybe", "Filter value for is_approved must be true or false"],
      ["open_time~1", "Operator ~ applies only to text fields"],
      ['"name=unterminated', "Malformed filters: Unterminated quoted cell"],
      ["tags=road", "Unknown filter field 'tags'"],
      ["just-a-word", "Malformed filter 'just-a-word': write field, operator, value"],
    ];
    for (const [filters, message] of cases) {
      const response = await call(token, "GET", `/data-api/Registration/?filters=${encodeURIComponent(filters)}`);
      expect(response.status, filters).toBe(400);
      expect(await response.json(), filters).toMatchObject({ error: "invalid_request", message });
    }
  });
});

describe("entity API: changes", () => {
  it("writes only the changed fields, stamps their times, and detects a stale write", async () => {
    const { token, club } = await clubAdmin("changes");
    const { id, body } = await createRegistration(token, club.id);
    const readTimes = body.field_mtimes as Record<string, number>;
    const first = await call(token, "POST", `/data-api/Registration/${id}/`, { name: "Spring 10K (new)", gst_rate: 13, field_mtimes: readTimes });
    expect(first.status).toBe(200);
    const changed = await first.json<{ changed: Record<string, unknown>; field_mtimes: Record<string, number> }>();
    expect(changed.changed).toEqual({ name: "Spring 10K (new)", gst_rate: 13 });
    expect(changed.field_mtimes.name).toBeGreaterThan(readTimes.name!);
    expect(changed.field_mtimes.club).toBe(readTimes.club);
    // A second writer still holding the first read loses on `name` only if it writes `name`.
    const stale = await call(token, "POST", `/data-api/Registration/${id}/`, { name: "Other", field_mtimes: readTimes });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ error: "stale", fields: ["name"], current: { name: "Spring 10K (new)" } });
    const other = await call(token, "POST", `/data-api/Registration/${id}/`, { sport: "running", field_mtimes: readTimes });
    expect(other.status).toBe(200);
    const tree = await (await call(token, "GET", `/data-api/Registration/${id}`)).json<Record<string, unknown>>();
    expect(tree).toMatchObject({ name: "Spring 10K (new)", sport: "running", gst_rate: 13 });
  });

  it("refuses unknown, read-only and create-only fields and wrong values on change", async () => {
    const { token, club } = await clubAdmin("refuse");
    const { id } = await createRegistration(token, club.id);
    const cases: [unknown, string][] = [
      [{ colour: "red" }, "Unknown field 'colour' for Registration"],
      [{ site: "x" }, "Field 'site' of Registration cannot be changed"],
      [{ club: club.id }, "Field 'club' of Registration cannot be changed"],
      // A club may not approve its own form.
      [{ is_approved: true }, "Field 'is_approved' of Registration cannot be changed"],
      [{ approval_status: "approved:" }, "Field 'approval_status' of Registration cannot be changed"],
      [{ gst_rate: "thirteen" }, "Invalid value for 'gst_rate'"],
      [{ age_calc_date: "2027-02-30" }, "Invalid value for 'age_calc_date'"],
    ];
    for (const [body, message] of cases) {
      const response = await call(token, "POST", `/data-api/Registration/${id}/`, body);
      expect(response.status).toBe(400);
      expect((await response.json<{ message: string }>()).message).toContain(message);
    }
    const missing = await call(token, "PUT", "/data-api/Registration/", { club: club.id });
    expect(await missing.json()).toMatchObject({ message: "Missing field 'name' for Registration" });
    const notJson = await worker.fetch(
      hostRequest(HOST, "/data-api/Registration/", {
        method: "PUT",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: "{nope",
      }),
    );
    expect(await notJson.json()).toMatchObject({ message: "The body is not valid JSON" });
  });

  it("checks a form element as the form builder does", async () => {
    const { token, club } = await clubAdmin("elements");
    const { id } = await createRegistration(token, club.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ type: "slider" }, "Invalid value for 'type'"],
      [{ type: "option", options_list: [{ id: "a", display: "A", price_1: -5 }] }, "Invalid value for 'options_list'"],
      [{ type: "discount", config: { discounts_list: [{ code: "TWO WORDS", type: "deduct_percent", amt: 10, elts_list: [] }] } }, "Invalid value for 'config'"],
    ];
    for (const [fields, message] of cases) {
      const response = await call(token, "PUT", "/data-api/FormElement/", { registration: id, ...fields });
      expect(response.status).toBe(400);
      expect((await response.json<{ message: string }>()).message).toContain(message);
    }
    const good = await call(token, "PUT", "/data-api/FormElement/", {
      registration: id,
      type: "option",
      options_list: [{ id: "a", display: "A", price_1: 500 }],
    });
    expect(good.status).toBe(201);
  });

  it("refuses what the form builder refuses, with the builder's words, and writes nothing", async () => {
    const { token, club } = await clubAdmin("elementrules");
    const { id } = await createRegistration(token, club.id);
    const other = await createRegistration(token, club.id, { name: "Other form" });
    const keyed = await call(token, "PUT", "/data-api/FormElement/", { registration: id, type: "text", caption: "Club", logic_key: "club" });
    expect(keyed.status).toBe(201);
    const elementsOf = async (registrationId: string) =>
      (
        await db()
          .select({ n: sql<number>`count(*)` })
          .from(sql`form_elements`)
          .where(sql`registration_id = ${registrationId}`)
      )[0]!.n;
    const before = await elementsOf(id);
    const foreign = await call(token, "PUT", "/data-api/FormElement/", { registration: other.id, type: "text", caption: "Elsewhere" });
    const foreignId = foreign.headers.get("Location")!.split("/").pop()!;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ type: "text", price_1: -5000 }, "price_1", "Too small"],
      [{ type: "text", caption: "x".repeat(5000) }, "caption", "Too big"],
      [{ type: "text", condition_element: foreignId, condition_operator: "eq", condition_value: "y" }, "condition.element", "Choose a field of this form"],
      [{ type: "text", logic_key: "club" }, "logic_key", "Another field of this form has this key"],
    ];
    for (const [fields, path, words] of cases) {
      const response = await call(token, "PUT", "/data-api/FormElement/", { registration: id, ...fields });
      const body = await response.json<{ error: string; message: string; fields: Record<string, string> }>();
      expect(response.status, path).toBe(400);
      expect(body.error).toBe("invalid_request");
      // The builder's own check (saveElement's) on the same element and form gives the same fields and words.
      const { condition_element, condition_operator, condition_value, ...rest } = fields;
      const condition = condition_element ? { element: condition_element, operator: condition_operator, value: condition_value } : null;
      const builder = checkElement({ ...newElement("x", "text", {}), ...rest, condition }, await listElements(db(), id));
      expect(builder).toEqual({ ok: false, errors: body.fields });
      expect(body.fields[path]).toContain(words);
      expect(body.message).toBe(`${path}: ${body.fields[path]}`);
    }
    expect(await elementsOf(id)).toBe(before);
    // A change is checked as it would be stored: a price made negative is refused and the old one stays.
    const elementId = keyed.headers.get("Location")!.split("/").pop()!;
    const change = await call(token, "POST", `/data-api/FormElement/${elementId}`, { price_1: -1 });
    expect(change.status).toBe(400);
    expect((await change.json<{ fields: Record<string, string> }>()).fields.price_1).toContain("Too small");
    const stored = await (await call(token, "GET", `/data-api/FormElement/${elementId}?registration=${id}`)).json<Record<string, unknown>>();
    expect(stored.price_1).toBeNull();
    expect((await call(token, "POST", `/data-api/FormElement/${elementId}`, { price_1: 2500 })).status).toBe(200);
  });

  it("refuses a form's settings that the settings page refuses, with its words", async () => {
    const { token, club } = await clubAdmin("formrules");
    const closing = await call(token, "PUT", "/data-api/Registration/", { club: club.id, name: "Backwards", open_time: 2_000_000, close_time: 1_000_000 });
    expect(closing.status).toBe(400);
    expect(await closing.json()).toMatchObject({ message: "close_time: The closing time must be after the opening time" });
    const { id } = await createRegistration(token, club.id, { open_time: 1_000_000, close_time: 2_000_000 });
    const rise = await call(token, "POST", `/data-api/Registration/${id}`, { raise_price_2_time: 1_500_000 });
    expect(await rise.json()).toMatchObject({ fields: { raise_price_1_time: "Set the first price rise before the second" } });
    // Checked as stored: moving the opening past the stored close is refused too.
    expect((await call(token, "POST", `/data-api/Registration/${id}`, { open_time: 3_000_000 })).status).toBe(400);
    const mail = await call(token, "PUT", "/data-api/FormElement/", { registration: id, type: "email", caption: "E-mail" });
    const mailId = mail.headers.get("Location")!.split("/").pop()!;
    const named = await call(token, "POST", `/data-api/Registration/${id}`, { first_name_field_id: mailId });
    expect(await named.json()).toMatchObject({ fields: { first_name_field_id: "Choose a text field of this form" } });
    const stored = await (await call(token, "GET", `/data-api/Registration/${id}`)).json<Record<string, unknown>>();
    expect(stored).toMatchObject({ open_time: 1_000_000, raise_price_2_time: null, first_name_field_id: null });
  });

  it("deletes, after which the entity and its children are gone", async () => {
    const { token, club } = await clubAdmin("deleter");
    const { id } = await createRegistration(token, club.id);
    const element = await call(token, "PUT", "/data-api/FormElement/", { registration: id, type: "text" });
    const elementId = element.headers.get("Location")!.split("/").pop()!;
    expect((await call(token, "DELETE", `/data-api/FormElement/${elementId}/?registration=${crypto.randomUUID()}`)).status).toBe(404);
    expect((await call(token, "DELETE", `/data-api/Registration/${id}/`)).status).toBe(204);
    expect((await call(token, "GET", `/data-api/Registration/${id}`)).status).toBe(404);
    expect((await call(token, "GET", `/data-api/FormElement/${elementId}?registration=${id}`)).status).toBe(404);
  });

  it("uses a client-chosen uuid once and refuses a malformed one", async () => {
    const { token, club } = await clubAdmin("clientid");
    const uuid = crypto.randomUUID();
    const first = await call(token, "PUT", "/data-api/Registration/", { uuid, club: club.id, name: "Mine" });
    expect(first.headers.get("Location")).toBe(`/data-api/Registration/${uuid}`);
    expect((await call(token, "PUT", "/data-api/Registration/", { uuid, club: club.id, name: "Again" })).status).toBe(409);
    expect((await call(token, "PUT", "/data-api/Registration/", { uuid: "1 OR 1", club: club.id, name: "Bad" })).status).toBe(400);
  });
});

describe("entity API: who may see and change what", () => {
  it("hides another club's entities: not in lists, not found by id, and not writable under it", async () => {
    const mine = await clubAdmin("mine");
    const theirs = await clubAdmin("theirs");
    const { id } = await createRegistration(theirs.token, theirs.club.id, { name: "Theirs" });
    const list = await (await call(mine.token, "GET", "/data-api/Registration/")).json<{ total: number }>();
    expect(list.total).toBe(0);
    expect((await call(mine.token, "GET", `/data-api/Registration/${id}`)).status).toBe(404);
    expect((await call(mine.token, "POST", `/data-api/Registration/${id}/`, { name: "Mine now" })).status).toBe(404);
    expect((await call(mine.token, "DELETE", `/data-api/Registration/${id}/`)).status).toBe(404);
    expect((await call(mine.token, "PUT", "/data-api/Registration/", { club: theirs.club.id, name: "Planted" })).status).toBe(403);
    expect((await call(mine.token, "PUT", "/data-api/FormElement/", { registration: id, type: "text" })).status).toBe(404);
  });

  it("lets a read-only role read but not change, with 403", async () => {
    const admin = await clubAdmin("readonly");
    const { id } = await createRegistration(admin.token, admin.club.id);
    const reader = await createUserWithPassword("reader@example.com", null, [{ type: "registration_readonly", scope: id }]);
    const token = await issueToken(reader.id, admin.appId, HOST, "registrations");
    expect((await call(token, "GET", `/data-api/Registration/${id}`)).status).toBe(200);
    expect((await (await call(token, "GET", "/data-api/Registration/")).json<{ total: number }>()).total).toBe(1);
    const change = await call(token, "POST", `/data-api/Registration/${id}/`, { name: "No" });
    expect(change.status).toBe(403);
    expect((await call(token, "PUT", "/data-api/FormElement/", { registration: id, type: "text" })).status).toBe(403);
  });

  it("answers 403 insufficient_scope naming the scope when the token lacks it", async () => {
    const { token } = await clubAdmin("noscope", "races");
    const response = await call(token, "GET", "/data-api/Registration/");
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: "insufficient_scope", scope: "registrations" });
  });

  it("narrows a token limited to items to those items", async () => {
    const admin = await clubAdmin("items");
    const a = await createRegistration(admin.token, admin.club.id, { name: "A" });
    const b = await createRegistration(admin.token, admin.club.id, { name: "B" });
    const limited = await issueToken(admin.user.id, admin.appId, HOST, `registrations:${a.id}`);
    const list = await (await call(limited, "GET", "/data-api/Registration/")).json<{ items: { uuid: string }[] }>();
    expect(list.items.map((i) => i.uuid)).toEqual([a.id]);
    const other = await call(limited, "GET", `/data-api/Registration/${b.id}`);
    expect(other.status).toBe(403);
    expect(await other.json()).toMatchObject({ error: "insufficient_scope", scope: "registrations" });
  });

  it("limits a whitelabel site's tokens to that site's entities", async () => {
    const admin = await clubAdmin("sitebound");
    const other = await clubAdmin("sitebound2");
    await createRegistration(admin.token, admin.club.id, { name: "Here" });
    await createRegistration(other.token, other.club.id, { name: "Elsewhere" });
    const both = await createUserWithPassword("both@example.com", null, [
      { type: "org_admin", clubId: admin.club.id },
      { type: "org_admin", clubId: other.club.id },
    ]);
    const siteApp = await createApp({ siteId: admin.site.id });
    const token = await issueToken(both.id, siteApp, "sitebound.localhost", "registrations");
    const response = await worker.fetch(hostRequest("sitebound.localhost", "/data-api/Registration/", { headers: { Authorization: `Bearer ${token}` } }));
    expect((await response.json<{ items: { name: string }[] }>()).items.map((i) => i.name)).toEqual(["Here"]);
  });

  it("answers unknown classes and read-only classes plainly", async () => {
    const { token } = await clubAdmin("unknown");
    const unknown = await call(token, "GET", "/data-api/Nope/");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ message: "No such class: Nope" });
    const lower = await call(token, "GET", "/data-api/registration/");
    expect(lower.status).toBe(404);
    const noToken = await worker.fetch(hostRequest(HOST, "/data-api/Registration/"));
    expect(noToken.status).toBe(401);
    const classes = await (
      await worker.fetch(hostRequest(HOST, "/data-api/classes"))
    ).json<{ classes: { classname: string; children: string[]; fields: { name: string; writable: boolean; create_only: boolean; required: boolean }[] }[] }>();
    expect(classes.classes.find((c) => c.classname === "Registration")?.children).toEqual(["formelements", "carts"]);
    const cart = classes.classes.find((c) => c.classname === "Cart")!;
    expect(cart.children).toEqual(["individuals"]);
    // A read-only class offers no field for writing.
    expect(cart.fields.filter((f) => f.writable || f.create_only || f.required)).toEqual([]);
    expect(classes.classes.find((c) => c.classname === "Registration")!.fields.find((f) => f.name === "name")?.writable).toBe(true);
  });
});

describe("entity API: carts and individuals", () => {
  /** A complete cart of two people and an abandoned one, on a form of the admin's club. */
  async function formWithCarts(admin: Awaited<ReturnType<typeof clubAdmin>>) {
    const { id } = await createRegistration(admin.token, admin.club.id);
    const owners = { registrationId: id, clubId: admin.club.id, siteId: admin.site.id, fieldMtimes: {} };
    const paid = {
      ...owners,
      id: crypto.randomUUID(),
      email: "ada@example.com",
      isComplete: true,
      cartNumber: 1,
      total: 9000,
      completedAt: 1_800_000_000_000,
      discountCodes: "HALF",
    };
    const abandoned = { ...owners, id: crypto.randomUUID(), email: null, cartNumber: 2 };
    await db().insert(carts).values([paid, abandoned]);
    for (const [ordinal, name] of ["Ada", "Bo"].entries()) {
      await db()
        .insert(individuals)
        .values({ ...owners, id: crypto.randomUUID(), cartId: paid.id, ordinal, isComplete: true, values: { first: { v: name, p: 0 } }, priceTotal: 4500 });
    }
    return { registrationId: id, paid, abandoned };
  }

  it("lists and reads carts with their people for those who may see the form's carts, and writes nothing", async () => {
    const admin = await clubAdmin("carts", "registrations carts");
    const { registrationId, paid, abandoned } = await formWithCarts(admin);
    const complete = await (
      await call(admin.token, "GET", `/data-api/Cart/?filters=${encodeURIComponent("is_complete=true")}`)
    ).json<{ total: number; items: Record<string, unknown>[] }>();
    expect(complete.total).toBe(1);
    expect(complete.items[0]).toMatchObject({
      classname: "Cart",
      uuid: paid.id,
      registration: registrationId,
      email: "ada@example.com",
      total: 9000,
      cart_number: 1,
      discount_codes: "HALF",
      completion_time: 1_800_000_000_000,
    });
    // Secrets of the flow (the resume and receipt token hashes) are not fields.
    expect(Object.keys(complete.items[0]!)).not.toContain("resume_hash");
    const tree = await (await call(admin.token, "GET", `/data-api/Cart/${paid.id}`)).json<{ individuals: Record<string, unknown>[] }>();
    expect(tree.individuals.map((p) => [p.ordinal, (p.values as Record<string, { v: string }>).first!.v, p.price_total])).toEqual([
      [0, "Ada", 4500],
      [1, "Bo", 4500],
    ]);
    const form = await (await call(admin.token, "GET", `/data-api/Registration/${registrationId}`)).json<{ carts: { uuid: string }[] }>();
    expect(form.carts.map((c) => c.uuid).sort()).toEqual([paid.id, abandoned.id].sort());
    const people = await (await call(admin.token, "GET", `/data-api/Individual/?filters=${encodeURIComponent(`cart=${paid.id}`)}`)).json<{ total: number }>();
    expect(people.total).toBe(2);
    expect((await call(admin.token, "PUT", "/data-api/Cart/", { registration: registrationId })).status).toBe(405);
    expect((await call(admin.token, "POST", `/data-api/Cart/${paid.id}/`, { email: "eve@example.com" })).status).toBe(405);
    expect((await call(admin.token, "DELETE", `/data-api/Cart/${paid.id}/`)).status).toBe(405);
  });

  it("keeps carts to the carts scope, the caller's club and a registration role's own form", async () => {
    const admin = await clubAdmin("cartscope", "registrations carts");
    const { registrationId, paid } = await formWithCarts(admin);
    const formOnly = await issueToken(admin.user.id, admin.appId, HOST, "registrations");
    const refused = await call(formOnly, "GET", "/data-api/Cart/");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: "insufficient_scope", scope: "carts" });
    expect((await (await call(formOnly, "GET", `/data-api/Registration/${registrationId}`)).json<{ carts: unknown[] }>()).carts).toEqual([]);
    const outsider = await clubAdmin("cartscope2", "registrations carts");
    expect((await (await call(outsider.token, "GET", "/data-api/Cart/")).json<{ total: number }>()).total).toBe(0);
    expect((await call(outsider.token, "GET", `/data-api/Cart/${paid.id}`)).status).toBe(404);
    const other = await formWithCarts(admin);
    const reader = await createUserWithPassword("cart-reader@example.com", null, [{ type: "registration_readonly", scope: registrationId }]);
    const readerToken = await issueToken(reader.id, admin.appId, HOST, "registrations carts");
    const seen = await (await call(readerToken, "GET", "/data-api/Cart/")).json<{ items: { registration: string }[] }>();
    expect(new Set(seen.items.map((c) => c.registration))).toEqual(new Set([registrationId]));
    expect((await call(readerToken, "GET", `/data-api/Cart/${other.paid.id}`)).status).toBe(404);
  });
});

describe("entity API: races are routed to their RaceRoom", () => {
  it("reads a race from its RaceRoom, writes changes there, and the RaceRoom updates the catalogue", async () => {
    const { token, race } = await clubAdmin("roomrace");
    const tree = await (await call(token, "GET", `/data-api/Race/${race.id}`)).json<Record<string, unknown>>();
    expect(tree).toMatchObject({ classname: "Race", uuid: race.id, name: "roomrace race", timezone: "America/Toronto", visibility: "public" });
    const room = env.RACE_ROOM.get(env.RACE_ROOM.idFromName(race.id));
    expect((await room.getSetup())?.name).toBe("roomrace race");
    const change = await call(token, "POST", `/data-api/Race/${race.id}/`, {
      name: "Renamed in the room",
      location: "Gatineau Park",
      field_mtimes: tree.field_mtimes,
    });
    expect(await change.json()).toMatchObject({ changed: { name: "Renamed in the room", location: "Gatineau Park" } });
    expect((await room.raceEntity())?.row).toMatchObject({ name: "Renamed in the room", location: "Gatineau Park" });
    const catalogue = await db().query.races.findFirst({ where: (r, { eq }) => eq(r.id, race.id) });
    expect(catalogue).toMatchObject({ name: "Renamed in the room", location: "Gatineau Park" });
    const list = await (await call(token, "GET", `/data-api/Race/?filters=${encodeURIComponent("name^renamed")}`)).json<{ items: { uuid: string }[] }>();
    expect(list.items.map((i) => i.uuid)).toEqual([race.id]);
    const stale = await call(token, "POST", `/data-api/Race/${race.id}/`, { name: "Late", field_mtimes: tree.field_mtimes });
    expect(await stale.json()).toMatchObject({ error: "stale", fields: ["name"], current: { name: "Renamed in the room" } });
    expect((await call(token, "POST", `/data-api/Race/${race.id}/`, { visibility: "secret" })).status).toBe(400);
  });

  it("creates a race with its RaceRoom and deletes both", async () => {
    const { token, club, site } = await clubAdmin("newrace");
    const created = await call(token, "PUT", "/data-api/Race/", {
      club: club.id,
      name: "Night Sprint",
      start_time: 1_900_000_000_000,
      timezone: "America/Montreal",
    });
    expect(created.status).toBe(201);
    const id = created.headers.get("Location")!.split("/").pop()!;
    const room = env.RACE_ROOM.get(env.RACE_ROOM.idFromName(id));
    expect(await room.raceEntity()).toMatchObject({ row: { uuid: id, name: "Night Sprint", club: club.id, site: site.id, timezone: "America/Montreal" } });
    // A public result format blocks deletion (timing.md section 4); made private, the race can go.
    const format = await room.saveDocument("ResultFormat", null, { name: "Results", is_public: true });
    const refused = await call(token, "DELETE", `/data-api/Race/${id}/`);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ message: "This race has public results. Make every result format private before deleting the race." });
    expect(await room.raceEntity()).not.toBeNull();
    await room.saveDocument("ResultFormat", (format as unknown as { value: { id: string } }).value.id, { is_public: false });
    expect((await call(token, "DELETE", `/data-api/Race/${id}/`)).status).toBe(204);
    expect(await room.raceEntity()).toBeNull();
    expect((await call(token, "GET", `/data-api/Race/${id}`)).status).toBe(404);
  });
});

describe("entity API: applications", () => {
  it("registers a public app under the same rules as /manage/apps, on the host it is created on", async () => {
    const { token, club } = await clubAdmin("apiapps", "apps");
    const created = await call(token, "PUT", "/data-api/APIApplication/", {
      club: club.id,
      name: "Scoreboard",
      scopes: "races registrations",
      redirect_uris: ["https://scoreboard.example/cb"],
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ is_public: true, is_system: false, site: null, club: club.id });
    const cases: [Record<string, unknown>, string][] = [
      [{ redirect_uris: ["http://scoreboard.example/cb"] }, "must use https; http is allowed only for 127.0.0.1 and localhost"],
      [{ redirect_uris: ["https://a.example/cb", "https://a.example/cb"] }, "Each redirect URI may be listed only once"],
      [{ scopes: "races everything" }, "Unknown scope: everything"],
      [{ is_public: false }, "Field 'is_public' of APIApplication cannot be set"],
      [{ is_system: true }, "Field 'is_system' of APIApplication cannot be set"],
    ];
    for (const [fields, message] of cases) {
      const response = await call(token, "PUT", "/data-api/APIApplication/", {
        club: club.id,
        name: "Bad",
        scopes: "races",
        redirect_uris: ["https://ok.example/cb"],
        ...fields,
      });
      expect(response.status).toBe(400);
      expect((await response.json<{ message: string }>()).message).toContain(message);
    }
  });
});
