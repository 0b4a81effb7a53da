// Validation systems (issue 27, decision 0052): a club's list of valid licence numbers uploaded as a CSV or a
// pattern, and the registration page refusing a number the system does not accept.
import { eq } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { VALIDATION_WORDS } from "../../core/registration/valid-numbers";
import { csvFiles, formElements, validationNumbers, validationSystems } from "../../schema/d1";
import { elementWriteProblems } from "../../workers/services/registration-forms";
import { uploadNumbers } from "../../workers/services/validation-systems";
import { createUserWithPassword, db, signIn, worker } from "./auth-fixtures";
import { hostRequest } from "./fixtures";
import { createForm, get, post } from "./registration-fixtures";

const ADMIN = "admin.localhost";

async function systemAdmin(): Promise<string> {
  const email = `valid-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const user = await createUserWithPassword(email, "glacier-ski-42", [{ type: "system_admin" }]);
  await env.DB.prepare("UPDATE roles SET config = ? WHERE user_id = ?")
    .bind(JSON.stringify({ all: true }), user.id)
    .run();
  return signIn(ADMIN, email, "glacier-ski-42");
}

/** A form with a licence field checked by a new system of the form's club. */
async function formWithSystem(kind: "list" | "pattern", pattern: string | null = null) {
  const f = await createForm();
  const system = { id: crypto.randomUUID(), clubId: f.club.id, siteId: f.site.id, name: "Licences 2026", kind, pattern, fieldMtimes: {} };
  await db().insert(validationSystems).values(system);
  const licence = crypto.randomUUID();
  await db()
    .insert(formElements)
    .values({
      id: licence,
      registrationId: f.registration.id,
      clubId: f.club.id,
      siteId: f.site.id,
      fieldMtimes: {},
      type: "text",
      caption: "Licence number",
      ordinal: 9,
      config: { validation_system_id: system.id },
    });
  return { ...f, system, licence };
}

function upload(systemId: string, fields: Record<string, string>, file: { name: string; text: string } | null, cookie: string) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  if (file) body.append("file", new File([file.text], file.name, { type: "text/csv" }));
  return worker.fetch(
    hostRequest(`${ADMIN}:8787`, `/_admin/validation/${systemId}/numbers`, {
      method: "POST",
      headers: { Origin: `http://${ADMIN}:8787`, "Sec-Fetch-Site": "same-origin", Cookie: cookie },
      body,
      redirect: "manual",
    }),
  );
}

const person = (f: Awaited<ReturnType<typeof formWithSystem>>, licence: string) => ({
  intent: "save-person",
  [f.ids.first]: "Ada",
  [f.ids.last]: "Lovelace",
  [f.ids.distance]: "5k",
  [f.licence]: licence,
});

const numbersOf = async (systemId: string) =>
  (await db().select({ n: validationNumbers.number }).from(validationNumbers).where(eq(validationNumbers.validationSystemId, systemId))).map((r) => r.n).sort();

describe("a list validation system", () => {
  it("is uploaded as a CSV's column, and the registration page refuses a number not on it", async () => {
    const f = await formWithSystem("list");
    const cookie = await systemAdmin();
    // Before any upload the field accepts any number: the club's set-up is not the registrant's fault.
    expect((await post(f.host, f.path, person(f, "ZZZ"))).status).toBe(302);

    const csv = "Name,Licence\r\nAda,00123\r\nBo,AB-77\r\n";
    const sent = await upload(
      f.system.id,
      { intent: "upload", submission: crypto.randomUUID(), column: "Licence" },
      { name: "members.csv", text: csv },
      cookie,
    );
    expect(sent.status).toBe(302);
    expect(await numbersOf(f.system.id)).toEqual(["123", "AB77"]);
    const [file] = await db().select().from(csvFiles).where(eq(csvFiles.validationSystemId, f.system.id));
    expect(file).toMatchObject({ filename: "members.csv", columnList: ["Name", "Licence"], clubId: f.club.id, numberCount: 2 });

    const refused = await post(f.host, f.path, person(f, "999"));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("This licence number is not on the club&#x27;s list");
    // Spaces, case, dashes and leading zeros do not matter.
    expect((await post(f.host, f.path, person(f, " ab 77 "))).status).toBe(302);
    expect((await post(f.host, f.path, person(f, "123"))).status).toBe(302);
  });

  it("replaces the whole list on a new upload, and a double click uploads once", async () => {
    const f = await formWithSystem("list");
    const cookie = await systemAdmin();
    const submission = crypto.randomUUID();
    const first = { name: "a.csv", text: "n\n1\n2\n3\n" };
    expect((await upload(f.system.id, { intent: "upload", submission, column: "n" }, first, cookie)).status).toBe(302);
    expect((await upload(f.system.id, { intent: "upload", submission, column: "n" }, first, cookie)).status).toBe(302);
    expect(await db().select().from(csvFiles).where(eq(csvFiles.validationSystemId, f.system.id))).toHaveLength(1);
    const second = { name: "b.csv", text: "n\n4\n" };
    expect((await upload(f.system.id, { intent: "upload", submission: crypto.randomUUID(), column: "n" }, second, cookie)).status).toBe(302);
    expect(await numbersOf(f.system.id)).toEqual(["4"]);
    const refused = await post(f.host, f.path, person(f, "1"));
    expect(refused.status).toBe(400);
  });

  it("refuses a wrong column, an empty or broken file and garbage with words, leaving the old list", async () => {
    const f = await formWithSystem("list");
    const cookie = await systemAdmin();
    expect(
      (await upload(f.system.id, { intent: "upload", submission: crypto.randomUUID(), column: "n" }, { name: "a.csv", text: "n\n7\n" }, cookie)).status,
    ).toBe(302);
    const wrongColumn = await upload(
      f.system.id,
      { intent: "upload", submission: crypto.randomUUID(), column: "Nope" },
      { name: "a.csv", text: "Name,Licence\n1,2\n" },
      cookie,
    );
    expect(wrongColumn.status).toBe(400);
    expect(await wrongColumn.text()).toContain("Choose the column that holds the numbers: Name, Licence");
    const broken = await upload(f.system.id, { intent: "upload", submission: crypto.randomUUID(), column: "n" }, { name: "a.csv", text: 'n\n"7' }, cookie);
    expect(broken.status).toBe(400);
    expect((await upload(f.system.id, { intent: "upload", submission: crypto.randomUUID(), column: "n" }, null, cookie)).status).toBe(400);
    expect((await upload(f.system.id, { intent: "upload", submission: "not-a-uuid", column: "n" }, { name: "a.csv", text: "n\n1\n" }, cookie)).status).toBe(
      400,
    );
    expect((await upload(f.system.id, { intent: "nonsense" }, null, cookie)).status).toBe(400);
    expect((await upload(f.system.id, { intent: "check", number: "" }, null, cookie)).status).toBe(400);
    const check = await upload(f.system.id, { intent: "check", number: "007" }, null, cookie);
    expect(await check.text()).toContain("007 is on the list.");
    expect(await numbersOf(f.system.id)).toEqual(["7"]);
  });

  it("takes 100,000 numbers in one upload", { timeout: 60_000 }, async () => {
    const f = await formWithSystem("list");
    const rows = Array.from({ length: 100_000 }, (_, i) => `L${String(i).padStart(6, "0")}`);
    const result = await uploadNumbers(db(), f.system as never, {
      submission: crypto.randomUUID(),
      filename: "big.csv",
      text: `licence\n${rows.join("\n")}\n`,
      column: "licence",
      userId: null,
      now: Date.now(),
    });
    expect(result.ok).toBe(true);
    const [count] = await env.DB.prepare("SELECT count(*) AS n FROM validation_numbers WHERE validation_system_id = ?")
      .bind(f.system.id)
      .all<{ n: number }>()
      .then((r) => r.results);
    expect(count!.n).toBe(100_000);
    expect((await post(f.host, f.path, person(f, "l099999"))).status).toBe(302);
    expect((await post(f.host, f.path, person(f, "L100000"))).status).toBe(400);
  });

  it("is no one's to open but the area's administrators", async () => {
    const f = await formWithSystem("list");
    const email = `norole-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await createUserWithPassword(email, "glacier-ski-42", []);
    const cookie = await signIn(ADMIN, email, "glacier-ski-42");
    expect(
      (await upload(f.system.id, { intent: "upload", submission: crypto.randomUUID(), column: "n" }, { name: "a.csv", text: "n\n1\n" }, cookie)).status,
    ).toBe(403);
    expect((await get(ADMIN, `/_admin/validation/${f.system.id}/numbers`)).status).not.toBe(200);
    expect(await numbersOf(f.system.id)).toEqual([]);
    const admin = await systemAdmin();
    expect((await get(ADMIN, `/_admin/validation/${crypto.randomUUID()}/numbers`, admin)).status).toBe(404);
  });
});

describe("a pattern validation system", () => {
  it("refuses a number not in the club's form", async () => {
    const f = await formWithSystem("pattern", "[A-Z]{3}\\d{4}");
    const refused = await post(f.host, f.path, person(f, "12345"));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("This licence number is not in the form the club expects");
    expect((await post(f.host, f.path, person(f, "can 1234"))).status).toBe(302);
  });

  it("checks nothing once inactive", async () => {
    const f = await formWithSystem("pattern", "\\d{4}");
    await db().update(validationSystems).set({ isActive: false }).where(eq(validationSystems.id, f.system.id));
    expect((await post(f.host, f.path, person(f, "abc"))).status).toBe(302);
  });
});

describe("a field naming a validation system", () => {
  it("may name only a system of its own club, from the builder or the data API", async () => {
    const f = await formWithSystem("list");
    const other = await formWithSystem("list");
    const stored = { registration: f.registration.id, type: "text", caption: "Licence", config: { validation_system_id: other.system.id } };
    expect(await elementWriteProblems(db(), crypto.randomUUID(), stored)).toEqual({ "config.validation_system_id": "Choose a validation system of this club" });
    expect(await elementWriteProblems(db(), crypto.randomUUID(), { ...stored, config: { validation_system_id: f.system.id } })).toBeNull();
    expect(await elementWriteProblems(db(), crypto.randomUUID(), { ...stored, type: "email", config: { validation_system_id: f.system.id } })).toEqual({
      "config.validation_system_id": "Only a text or number field can use a validation system",
    });
    expect(VALIDATION_WORDS.notOnList).toBe("This licence number is not on the club's list");
  });
});
