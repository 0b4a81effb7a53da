import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { parseCsv } from "../../core/entity/csv";
import { initialMtimes } from "../../core/entity/field-mtimes";
import { carts, formElements, individuals, registrationReports, registrations, transactions } from "../../schema/d1";
import { createUserWithPassword, db, signIn, pagePost, worker } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";

const HOST = "localhost";
const PASSWORD = "glacier-ski-42";

function get(path: string, cookie: string, host = HOST) {
  return worker.fetch(hostRequest(host, path, { headers: { Cookie: cookie }, redirect: "manual" }));
}

const post = (path: string, cookie: string, fields: [string, string][], host = HOST) => pagePost(host, path, fields, cookie);

type Role = "org_admin" | "report_view" | "report_edit_view" | "registration_readonly";

/**
 * A club with one form (first and last name, email, birth date, distance, toque) and five carts: two
 * complete (one paid then partly refunded, with a removed person; one unpaid), one incomplete, one
 * removed, and one complete whose only payment is void.
 */
async function formWithCarts() {
  const label = crypto.randomUUID().slice(0, 8);
  const { club, site } = await createSiteWithRace(db(), { hostname: `reports-${label}.example.org`, siteName: `Reports ${label}`, raceName: "Unused Race" });
  const registration = { id: crypto.randomUUID(), clubId: club.id, siteId: site.id, name: "Spring Loppet" };
  await db()
    .insert(registrations)
    .values({ ...registration, fieldMtimes: initialMtimes(registration, Date.now()) });
  const ids = {
    first: crypto.randomUUID(),
    last: crypto.randomUUID(),
    email: crypto.randomUUID(),
    dob: crypto.randomUUID(),
    distance: crypto.randomUUID(),
    toque: crypto.randomUUID(),
  };
  const base = { registrationId: registration.id, clubId: club.id, siteId: site.id, fieldMtimes: {} };
  const elementRows = [
    { ...base, id: ids.first, type: "text", caption: "First name", ordinal: 1 },
    { ...base, id: ids.last, type: "text", caption: "Last name", ordinal: 2 },
    { ...base, id: ids.email, type: "email", caption: "Contact", ordinal: 3 },
    { ...base, id: ids.dob, type: "dob", caption: "Birth date", ordinal: 4 },
    {
      ...base,
      id: ids.distance,
      type: "option",
      caption: "Distance",
      ordinal: 5,
      optionsList: [
        { id: "5k", display: "5 km" },
        { id: "10k", display: "10 km" },
      ],
    },
    { ...base, id: ids.toque, type: "checkbox", caption: "Toque", ordinal: 6 },
  ];
  // One row per insert: D1 binds at most 100 values per statement.
  for (const row of elementRows) await db().insert(formElements).values(row);

  const completedAt = Date.UTC(2026, 4, 1, 16);
  const cart = async (
    n: number,
    extra: Partial<typeof carts.$inferInsert>,
    people: { first: string; distance: string; priceTotal: number; isRemoved?: boolean; email?: string; dob?: string }[],
  ) => {
    const id = crypto.randomUUID();
    await db()
      .insert(carts)
      .values({
        id,
        registrationId: registration.id,
        clubId: club.id,
        siteId: site.id,
        cartNumber: n,
        isComplete: true,
        completedAt,
        email: `cart${n}@example.com`,
        ...extra,
      });
    for (const [i, p] of people.entries()) {
      const values: Record<string, { v: unknown; p: number }> = {
        [ids.first]: { v: p.first, p: 0 },
        [ids.last]: { v: `Family${n}`, p: 0 },
        [ids.distance]: { v: p.distance, p: p.priceTotal },
      };
      if (p.email) values[ids.email] = { v: { addresses: p.email, optin: true }, p: 0 };
      if (p.dob) values[ids.dob] = { v: p.dob, p: 0 };
      await db()
        .insert(individuals)
        .values({
          id: crypto.randomUUID(),
          cartId: id,
          registrationId: registration.id,
          clubId: club.id,
          siteId: site.id,
          ordinal: i + 1,
          isComplete: true,
          isRemoved: p.isRemoved ?? false,
          priceTotal: p.priceTotal,
          values,
        });
    }
    return id;
  };
  const c1 = await cart(1, { total: 9000 }, [
    { first: "Ada", distance: "10k", priceTotal: 5000, email: "ada@example.com", dob: "1990-12-10" },
    { first: "Bo", distance: "5k", priceTotal: 4000 },
    { first: "Cy", distance: "10k", priceTotal: 0, isRemoved: true },
  ]);
  const c2 = await cart(2, { total: 4500 }, [{ first: "Dee", distance: "10k", priceTotal: 4500 }]);
  await cart(3, { total: 3500, isComplete: false, completedAt: null }, [{ first: "Eve", distance: "5k", priceTotal: 3500 }]);
  await cart(4, { total: 3500, isRemoved: true }, [{ first: "Fay", distance: "5k", priceTotal: 3500 }]);
  const c5 = await cart(5, { total: 3500 }, [{ first: "Gus", distance: "5k", priceTotal: 3500 }]);

  const money = { registrationId: registration.id, clubId: club.id, siteId: site.id, provider: "manual", fieldMtimes: {} };
  const payment = crypto.randomUUID();
  await db()
    .insert(transactions)
    .values({ ...money, id: payment, type: "payment", amount: 9000, cartId: c1, completionTime: completedAt });
  await db()
    .insert(transactions)
    .values({ ...money, id: crypto.randomUUID(), type: "refund", amount: 1000, cartId: c1, completionTime: completedAt + 1000, parentTransaction: payment });
  // Not completed yet, and void: neither counts.
  await db()
    .insert(transactions)
    .values({ ...money, id: crypto.randomUUID(), type: "payment", amount: 4500, cartId: c2, completionTime: null });
  await db()
    .insert(transactions)
    .values({ ...money, id: crypto.randomUUID(), type: "payment", amount: 3500, cartId: c5, completionTime: completedAt, isVoid: true });

  const users = new Map<string, string>();
  const signInAs = async (role: Role, host = HOST) => {
    const email = `${role}-${label}-${users.size}@example.com`;
    await createUserWithPassword(email, PASSWORD, [role === "org_admin" ? { type: role, clubId: club.id } : { type: role, scope: registration.id }]);
    const cookie = await signIn(host, email, PASSWORD);
    users.set(cookie, email);
    return cookie;
  };
  return { site, club, registration, ids, signInAs, reports: `/registration/${registration.id}/reports` };
}

/** The CSV's records; it must start with the UTF-8 byte order mark (which text() would silently drop). */
const csvRows = async (response: Response) => {
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return parseCsv(new TextDecoder().decode(bytes.slice(3))).map((row) => row.map((cell) => cell.text));
};

/** The builder's fields for a new report: the columns ticked, then any rows as given. */
function reportForm(name: string, type: "individuals" | "carts", columns: string[], rows: Record<string, string> = {}, shared = false): [string, string][] {
  return [
    ["intent", "save"],
    ["type", type],
    ["name", name],
    ...(shared ? [["is_shared", "on"] as [string, string]] : []),
    ...columns.map((c): [string, string] => ["fields", c]),
    ...Object.entries(rows),
  ];
}

const cellTexts = (html: string) => [...html.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]);

describe("registration reports", () => {
  it("lists only complete, non-removed carts and people, with what each cart has paid net of refunds", async () => {
    const f = await formWithCarts();
    const admin = await f.signInAs("org_admin");
    const page = await get(`${f.reports}/all-carts`, admin);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("All carts: 3 carts");
    // Cart 1: 90.00 paid less a 10.00 refund; cart 2's payment is not completed; cart 5's is void.
    expect(html).toMatch(
      /<td>1<\/td><td>cart1@example.com<\/td><td>2026-05-01<\/td><td class="num">90.00<\/td><td class="num">80.00<\/td><td class="num">2<\/td><td>Ada Family1, Bo Family1<\/td>/,
    );
    expect(html).toMatch(/<td>2<\/td><td>cart2@example.com<\/td><td>2026-05-01<\/td><td class="num">45.00<\/td><td class="num">0.00<\/td>/);
    expect(html).not.toContain("cart3@example.com");
    expect(html).not.toContain("cart4@example.com");
    const people = await (await get(`${f.reports}/all-individuals`, admin)).text();
    for (const name of ["Ada", "Bo", "Dee", "Gus"]) expect(people).toContain(`<td>${name}</td>`);
    for (const name of ["Cy", "Eve", "Fay"]) expect(people).not.toContain(`<td>${name}</td>`);
  });

  it("saves a report with filters, sorts and a group, and the page shows only what passes", async () => {
    const f = await formWithCarts();
    const admin = await f.signInAs("org_admin");
    const bad = await post(
      `${f.reports}?index`,
      admin,
      reportForm("Long ones", "individuals", [`field.${f.ids.first}`], {
        "filter.2.key": `field.${f.ids.distance}`,
        "filter.2.op": "set_to",
        "filter.2.value": "marathon",
      }),
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/id="filter\.2\.value-error" class="form-error">Distance has no option “marathon”</);

    const created = await post(
      `${f.reports}?index`,
      admin,
      reportForm("Long ones", "individuals", [`field.${f.ids.first}`, "person.total", "cart.paid"], {
        "filter.0.key": `field.${f.ids.distance}`,
        "filter.0.op": "set_to",
        "filter.0.value": "10 km",
        "sort.0.key": `field.${f.ids.first}`,
        "sort.0.dir": "desc",
        "group.0": "cart.number",
      }),
    );
    expect(created.status).toBe(302);
    const location = created.headers.get("Location")!;
    expect(location).toMatch(new RegExp(`^${f.reports}/[0-9a-f-]{36}\\?saved=created$`));
    const [stored] = await db().select().from(registrationReports).where(eq(registrationReports.registrationId, f.registration.id));
    expect(stored!.filtersList).toEqual([{ key: `field.${f.ids.distance}`, op: "set_to", value: "10k" }]);

    const html = await (await get(location, admin)).text();
    expect(html).toContain("Report saved.");
    expect(html).toContain("Filters: Distance is set to “10 km”.");
    expect(html).toContain("Cart No.: 1 · 1 person · Individual total 50.00 · Paid (net of refunds) 80.00");
    expect(cellTexts(html)).toEqual(["Ada", "50.00", "80.00", "Dee", "45.00", "0.00", "95.00", "80.00"]);
    expect(html).toContain('<th scope="row">Total: 2 people</th>');
    // The builder opens the saved report for editing, and saving changes it in place.
    const id = /reports\/([0-9a-f-]{36})/.exec(location)![1]!;
    expect(await (await get(`${f.reports}?edit=${id}`, admin)).text()).toContain("Edit “Long ones”");
    const changed = await post(`${f.reports}?index&edit=${id}`, admin, [
      ...reportForm("Short ones", "individuals", [`field.${f.ids.first}`], {
        "filter.0.key": `field.${f.ids.distance}`,
        "filter.0.op": "not_set_to",
        "filter.0.value": "10k",
      }),
      ["target", id],
    ]);
    expect(changed.headers.get("Location")).toBe(`${f.reports}/${id}?saved=saved`);
    expect(cellTexts(await (await get(`${f.reports}/${id}`, admin)).text())).toEqual(["Bo", "Gus"]);
  });

  it("shows a View Report user no sensitive column in the page or the CSV, and an Organization Admin every one", async () => {
    const f = await formWithCarts();
    const viewer = await f.signInAs("report_view");
    const admin = await f.signInAs("org_admin");
    const sensitive = ["Cart email", "Contact", "Birth date", "ada@example.com", "1990-12-10", "cart1@example.com"];

    const viewerPage = await (await get(`${f.reports}/all-individuals`, viewer)).text();
    expect(viewerPage).toContain("<td>Ada</td>");
    for (const text of sensitive) expect(viewerPage).not.toContain(text);
    const viewerCsv = (await csvRows(await get(`${f.reports}/all-individuals.csv`, viewer))).flat().join("|");
    expect(viewerCsv).toContain("Ada");
    for (const text of sensitive) expect(viewerCsv).not.toContain(text);

    const adminPage = await (await get(`${f.reports}/all-individuals`, admin)).text();
    for (const text of sensitive) expect(adminPage).toContain(text);
    const adminCsv = (await csvRows(await get(`${f.reports}/all-individuals.csv`, admin))).flat().join("|");
    for (const text of sensitive) expect(adminCsv).toContain(text);

    // A shared report naming the birth date shows it to the admin only; its filter on it still applies for the viewer.
    const saved = await post(
      `${f.reports}?index`,
      admin,
      reportForm(
        "Born before 2000",
        "individuals",
        [`field.${f.ids.first}`, `field.${f.ids.dob}`],
        { "filter.0.key": `field.${f.ids.dob}`, "filter.0.op": "lt", "filter.0.value": "2000-01-01" },
        true,
      ),
    );
    const path = saved.headers.get("Location")!.replace(/\?.*$/, "");
    // The last cell is the totals row's, under the birth date, which has no sum.
    expect(cellTexts(await (await get(path, admin)).text())).toEqual(["Ada", "1990-12-10", ""]);
    const viewed = await (await get(path, viewer)).text();
    expect(cellTexts(viewed)).toEqual(["Ada"]);
    expect(viewed).toContain("1 on a private column you may not see");
    expect(viewed).not.toContain("Birth date");
    const csv = await csvRows(await get(`${path}.csv`, viewer));
    expect(csv[0]).toEqual(["First name"]);

    // The builder never offers the viewer's kind of user a private column.
    const editor = await f.signInAs("report_edit_view");
    const builder = await (await get(f.reports, editor)).text();
    expect(builder).toContain(`value="field.${f.ids.first}"`);
    expect(builder).not.toContain(`value="field.${f.ids.dob}"`);
    const refused = await post(`${f.reports}?index`, editor, reportForm("Sneaky", "individuals", [`field.${f.ids.dob}`]));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Choose columns from the list");
  });

  it("lets a View Report user read reports but not save, change or delete one", async () => {
    const f = await formWithCarts();
    const viewer = await f.signInAs("report_view");
    const list = await get(f.reports, viewer);
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(html).toContain("No saved reports yet.");
    expect(html).not.toContain("New report");
    const refused = await post(`${f.reports}?index`, viewer, reportForm("Mine", "individuals", [`field.${f.ids.first}`]));
    expect(refused.status).toBe(403);
    expect(await db().select().from(registrationReports).where(eq(registrationReports.registrationId, f.registration.id))).toHaveLength(0);
    // The form builder stays closed to them.
    expect((await get(`/registration/${f.registration.id}/admin`, viewer)).status).toBe(404);
  });

  it("keeps a report that is not shared to its author; a shared one is seen by others who may see reports", async () => {
    const f = await formWithCarts();
    const author = await f.signInAs("report_edit_view");
    const other = await f.signInAs("report_edit_view");
    const mine = (await post(`${f.reports}?index`, author, reportForm("Private list", "carts", ["cart.number"]))).headers.get("Location")!.replace(/\?.*$/, "");
    const ours = (await post(`${f.reports}?index`, author, reportForm("Team list", "carts", ["cart.number"], {}, true))).headers
      .get("Location")!
      .replace(/\?.*$/, "");

    const authorList = await (await get(f.reports, author)).text();
    expect(authorList).toContain("Private list");
    expect(authorList).toContain("Team list");
    const otherList = await (await get(f.reports, other)).text();
    expect(otherList).not.toContain("Private list");
    expect(otherList).toContain("Team list");
    expect((await get(mine, other)).status).toBe(404);
    expect((await get(`${mine}.csv`, other)).status).toBe(404);
    expect((await post(mine, other, [["intent", "delete"]])).status).toBe(404);
    expect((await get(ours, other)).status).toBe(200);

    // Deleting asks first, then deletes.
    const confirm = await (await get(`${ours}?delete=1`, author)).text();
    expect(confirm).toContain("Delete “Team list”?");
    const deleted = await post(ours, author, [["intent", "delete"]]);
    expect(deleted.headers.get("Location")).toBe(`${f.reports}?saved=deleted`);
    expect((await get(ours, author)).status).toBe(404);
  });

  it("exports the whole report as CSV whose totals row equals the sum of its rows", async () => {
    const f = await formWithCarts();
    const admin = await f.signInAs("registration_readonly");
    const response = await get(`${f.reports}/all-carts.csv`, admin);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="spring-loppet-all-carts.csv"');
    const raw = await response.clone().text();
    expect(raw).toContain("\r\n");
    const rows = await csvRows(response);
    const header = rows[0]!;
    const totals = rows.at(-1)!;
    const body = rows.slice(1, -1);
    expect(body.map((r) => r[0])).toEqual(["1", "2", "5"]);
    expect(totals[0]).toBe("Total: 3 carts");
    for (const label of ["Cart total", "Paid (net of refunds)", "People"]) {
      const j = header.indexOf(label);
      const sum = body.reduce((s, r) => s + Math.round(Number(r[j]) * 100), 0);
      expect(Math.round(Number(totals[j]) * 100)).toBe(sum);
    }
    expect(totals[header.indexOf("Cart total")]).toBe("170.00");
    expect(totals[header.indexOf("Paid (net of refunds)")]).toBe("80.00");
  });

  it("pages the table at 200 rows, while the CSV holds every row", async () => {
    const f = await formWithCarts();
    const admin = await f.signInAs("org_admin");
    // 200 more complete carts (3 already listed): 203 in all. One row per statement (D1's 100 bound values).
    const more = Array.from({ length: 200 }, (_, i) =>
      db()
        .insert(carts)
        .values({
          id: crypto.randomUUID(),
          registrationId: f.registration.id,
          clubId: f.club.id,
          siteId: f.site.id,
          cartNumber: 100 + i,
          isComplete: true,
          completedAt: Date.UTC(2026, 4, 2),
          total: 100,
        }),
    );
    await db().batch(more as unknown as Parameters<ReturnType<typeof db>["batch"]>[0]);
    const first = await (await get(`${f.reports}/all-carts`, admin)).text();
    expect(first).toContain("All carts: 203 carts, page 1 of 2");
    expect(first).toContain("Rows 1–200 of 203 (page 1 of 2)");
    expect(first).toContain(`href="${f.reports}/all-carts?page=2"`);
    const second = await (await get(`${f.reports}/all-carts?page=2`, admin)).text();
    expect(second).toContain("Rows 201–203 of 203 (page 2 of 2)");
    expect(second.match(/<tr><td>/g)).toHaveLength(3);
    // The totals are the whole report's on every page: 170.00 + 200 × 1.00.
    expect(second).toContain('<td class="num">370.00</td>');
    const csv = await csvRows(await get(`${f.reports}/all-carts.csv`, admin));
    expect(csv).toHaveLength(1 + 203 + 1);
  });

  it("is not found from another site, or for a form the user has no role on", async () => {
    const f = await formWithCarts();
    const g = await formWithCarts();
    const stranger = await g.signInAs("org_admin");
    expect((await get(f.reports, stranger)).status).toBe(404);
    expect((await get(`${f.reports}/all-carts.csv`, stranger)).status).toBe(404);
    // The form's own Organization Admin, signed in on another club's site: that site has no such form.
    const elsewhere = await f.signInAs("org_admin", g.site.hostname);
    expect((await get(f.reports, elsewhere, g.site.hostname)).status).toBe(404);
    expect((await get(f.reports, await f.signInAs("org_admin", f.site.hostname), f.site.hostname)).status).toBe(200);
  });
});
