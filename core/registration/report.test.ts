import { describe, expect, it } from "vitest";
import type { RoleGrant, RoleType } from "../access/roles";
import { csvSafe } from "../entity/csv";
import { makeElement } from "../forms/test-elements";
import {
  BUILT_IN_KEYS,
  dayIn,
  elementColumnKey,
  isSensitiveColumn,
  reportColumns,
  type ReportCartData,
  type ReportColumn,
  type ReportForm,
  type ReportIndividualData,
} from "./report-columns";
import { checkDefinition, compileFilter, defaultLayout, describeLayout, keepHiddenParts } from "./report-checks";
import { OPERATOR_LABELS, OPERATORS_BY_KIND, reportDefinitionSchema, reportPermissions, type ReportDefinition, type ReportLayout } from "./report-definition";
import { reportCsv, reportPage, runReport, totalsCells } from "./report";

const K = BUILT_IN_KEYS;
const f = elementColumnKey;

const elements = [
  makeElement("text", { id: "first", caption: "First name", ordinal: 1 }),
  makeElement("text", { id: "last", caption: "Last name", ordinal: 2 }),
  makeElement("email", { id: "email", caption: "Your contact", ordinal: 3 }),
  makeElement("phone", { id: "phone", caption: "Cell", ordinal: 4 }),
  makeElement("dob", { id: "dob", caption: "Born on", ordinal: 5 }),
  makeElement("option", {
    id: "distance",
    caption: "Distance",
    column_header: "Dist.",
    ordinal: 6,
    options_list: [
      { id: "5k", display: "5 km" },
      { id: "10k", display: "10 km" },
    ],
  }),
  makeElement("checkbox", { id: "toque", caption: "Toque", ordinal: 7 }),
  makeElement("donation", { id: "gift", caption: "Donation", ordinal: 8 }),
  makeElement("text", { id: "street", caption: "Street Address", ordinal: 9 }),
  makeElement("text", { id: "health", caption: "[en]Medical notes[fr]Notes de santé", ordinal: 10 }),
  makeElement("text", { id: "pid", caption: "Person ID", ordinal: 11 }),
  makeElement("number", { id: "age", caption: "Age", ordinal: 12 }),
  makeElement("multioption", {
    id: "extras",
    caption: "Extras",
    ordinal: 13,
    options_list: [
      { id: "meal", display: "Meal" },
      { id: "bus", display: "Bus" },
    ],
  }),
  makeElement("date", { id: "arrival", caption: "Arrival", ordinal: 14 }),
  makeElement("heading", { id: "head", caption: "About you", ordinal: 15 }),
  makeElement("discount", { id: "codes", caption: "Codes", ordinal: 16 }),
];

const form: ReportForm = { elements, firstNameFieldId: "first", lastNameFieldId: "last", timeZone: "America/Toronto" };

const v = (value: unknown) => ({ v: value, p: 0 });

function person(id: string, ordinal: number, values: Record<string, unknown>, extra: Partial<ReportIndividualData> = {}): ReportIndividualData {
  return {
    id,
    ordinal,
    isRemoved: false,
    isComplete: true,
    priceTotal: null,
    values: Object.fromEntries(Object.entries(values).map(([k, x]) => [k, v(x)])),
    ...extra,
  };
}

function cart(id: string, extra: Partial<ReportCartData>): ReportCartData {
  return {
    id,
    legacyId: null,
    cartNumber: null,
    email: null,
    isComplete: true,
    isRemoved: false,
    completedAt: null,
    total: null,
    paid: 0,
    values: {},
    individuals: [],
    ...extra,
  };
}

// 2026-05-02 03:30 UTC is still 1 May in Toronto.
const MAY_1_EVENING = Date.UTC(2026, 4, 2, 3, 30);
const MAY_3 = Date.UTC(2026, 4, 3, 16, 0);

const carts: ReportCartData[] = [
  cart("c1", {
    cartNumber: 1,
    email: "ada@example.com",
    completedAt: MAY_1_EVENING,
    total: 9000,
    paid: 9000,
    values: { codes: v("TEAM") },
    individuals: [
      person(
        "p-ada",
        1,
        {
          first: "Ada",
          last: "Lovelace",
          distance: "10k",
          toque: true,
          gift: 2500,
          email: { addresses: "ada@example.com", optin: true },
          phone: "6135550199",
          dob: "1990-12-10",
          age: 35,
          extras: ["meal", "bus"],
          arrival: "2026-06-01",
        },
        { priceTotal: 5000 },
      ),
      person("p-bo", 2, { first: "Bo", last: "Lovelace", distance: "5k", age: 8.5, extras: ["bus"] }, { priceTotal: 4000 }),
      person("p-cy", 3, { first: "Cy", last: "Removed", distance: "10k" }, { isRemoved: true, priceTotal: 9999 }),
    ],
  }),
  cart("c2", {
    cartNumber: 2,
    email: "zed@example.com",
    completedAt: MAY_3,
    total: 3500,
    paid: 2500,
    individuals: [person("p-zed", 1, { first: "=cmd|' /C calc'!A0", last: "Zed", distance: "5k", age: 40 }, { priceTotal: 3500 })],
  }),
  cart("c3", { cartNumber: 3, isComplete: false, total: 4000, individuals: [person("p-dee", 1, { first: "Dee", distance: "10k" }, { priceTotal: 4000 })] }),
  cart("c4", { cartNumber: 4, isRemoved: true, total: 4000, individuals: [person("p-eve", 1, { first: "Eve", distance: "10k" }, { priceTotal: 4000 })] }),
  cart("c10", {
    cartNumber: 10,
    email: "emile@example.com",
    completedAt: MAY_3,
    total: 4500,
    paid: 0,
    individuals: [
      person("p-emile", 1, { first: 'Émile, "Jr"', last: "Ng", distance: "10k", toque: false }, { priceTotal: 4500 }),
      person("p-half", 2, { first: "Half", last: "Done", distance: "10k" }, { isComplete: false, priceTotal: 1 }),
    ],
  }),
];

const layout = (over: Partial<ReportLayout> = {}): ReportLayout => ({
  type: "individuals",
  fields_list: [K.cartNumber, f("first"), f("distance"), K.personTotal],
  sorts_list: [],
  groups_list: [],
  filters_list: [],
  ...over,
});
const run = (over: Partial<ReportLayout> = {}, allowSensitive = true) => runReport(layout(over), form, carts, { allowSensitive });
const firstNames = (over: Partial<ReportLayout> = {}) => run({ fields_list: [f("first")], ...over }).rows.map((r) => r.cells[0]);
const filtered = (key: string, op: keyof typeof OPERATOR_LABELS, value = "") => firstNames({ filters_list: [{ key, op, value }] });

describe("report columns", () => {
  const individuals = reportColumns(form, "individuals");
  const byKey = new Map(individuals.map((c) => [c.key, c]));

  it("lists the built-in columns, then one per input field in form order, with the column header when set", () => {
    expect(individuals.map((c) => c.label)).toEqual([
      "Cart No.",
      "Cart email",
      "Completed",
      "Cart total",
      "Paid (net of refunds)",
      "Person # in cart",
      "Individual total",
      "First name",
      "Last name",
      "Your contact",
      "Cell",
      "Born on",
      "Dist.",
      "Toque",
      "Donation",
      "Street Address",
      "Medical notes",
      "Person ID",
      "Age",
      "Extras",
      "Arrival",
      "Codes",
    ]);
  });

  it("gives each column its kind, money flag, scope and options", () => {
    expect(byKey.get(K.cartTotal)).toMatchObject({ kind: "number", money: true, scope: "cart", summable: true });
    expect(byKey.get(K.personNumber)).toMatchObject({ kind: "number", money: false, summable: false });
    expect(byKey.get(K.completed)?.kind).toBe("date");
    expect(byKey.get(f("gift"))).toMatchObject({ kind: "number", money: true, scope: "individual" });
    expect(byKey.get(f("dob"))?.kind).toBe("date");
    expect(byKey.get(f("toque"))?.kind).toBe("boolean");
    expect(byKey.get(f("distance"))).toMatchObject({
      kind: "option",
      options: [
        { value: "5k", label: "5 km" },
        { value: "10k", label: "10 km" },
      ],
    });
    expect(byKey.get(f("extras"))?.kind).toBe("option");
    expect(byKey.get(f("codes"))?.scope).toBe("cart");
  });

  it("offers a carts report the cart's own columns and cart-level fields only", () => {
    expect(reportColumns(form, "carts").map((c) => c.key)).toEqual([
      K.cartNumber,
      K.cartEmail,
      K.completed,
      K.cartTotal,
      K.paid,
      K.people,
      K.names,
      f("codes"),
    ]);
  });

  it("marks sensitive columns by section 9's keywords in the label or key, and the private types", () => {
    const sensitive = individuals.filter((c) => c.isSensitive).map((c) => c.label);
    expect(sensitive).toEqual(["Cart email", "Your contact", "Cell", "Born on", "Street Address", "Medical notes", "Person ID"]);
    expect(isSensitiveColumn("Mailing list", "x")).toBe(true);
    expect(isSensitiveColumn("Date of BIRTH", "x")).toBe(true);
    expect(isSensitiveColumn("Home PHONE", "x")).toBe(true);
    expect(isSensitiveColumn("Emergency contact", "field.phone-2")).toBe(true);
    expect(isSensitiveColumn("Person #", "person.number")).toBe(false);
    expect(isSensitiveColumn("Distance", "field.1")).toBe(false);
  });

  it("reads the day a cart was completed on the club's calendar", () => {
    expect(dayIn(MAY_1_EVENING, "America/Toronto")).toBe("2026-05-01");
    expect(dayIn(MAY_1_EVENING, "UTC")).toBe("2026-05-02");
    expect(dayIn(MAY_1_EVENING, "Not/A_Zone")).toBe("2026-05-02");
  });
});

describe("which carts and people are reported", () => {
  it("includes only complete, non-removed carts and their non-removed, complete people", () => {
    const table = run({ fields_list: [K.cartNumber, f("first"), K.personNumber] });
    expect(table.rows.map((r) => r.cells)).toEqual([
      ["1", "Ada", "1"],
      ["1", "Bo", "2"],
      ["2", "=cmd|' /C calc'!A0", "1"],
      ["10", 'Émile, "Jr"', "1"],
    ]);
  });

  it("counts and names only the reported people of a cart", () => {
    const table = runReport(
      {
        type: "carts",
        fields_list: [K.cartNumber, K.people, K.names, K.cartTotal, K.paid, K.completed, f("codes")],
        sorts_list: [],
        groups_list: [],
        filters_list: [],
      },
      form,
      carts,
      { allowSensitive: true },
    );
    expect(table.rows.map((r) => r.cells)).toEqual([
      ["1", "2", "Ada Lovelace, Bo Lovelace", "90.00", "90.00", "2026-05-01", "TEAM"],
      ["2", "1", "=cmd|' /C calc'!A0 Zed", "35.00", "25.00", "2026-05-03", ""],
      ["10", "1", 'Émile, "Jr" Ng', "45.00", "0.00", "2026-05-03", ""],
    ]);
  });
});

describe("filters", () => {
  it("offers exactly section 5's operators for each kind, with its words", () => {
    const labels = (kind: keyof typeof OPERATORS_BY_KIND) => OPERATORS_BY_KIND[kind].map((op) => OPERATOR_LABELS[op]);
    expect(labels("text")).toEqual(["Matches", "Does Not Match", "Starts With", "Does not start with", "Is Blank", "Is Not Blank"]);
    expect(labels("number")).toEqual(["is equal to", "not equal to", "less than", "greater than"]);
    expect(labels("date")).toEqual(["is equal to", "not equal to", "less than", "greater than"]);
    expect(labels("option")).toEqual(["is set", "is not set", "is set to", "is not set to"]);
    expect(labels("boolean")).toEqual(["is checked", "is not checked"]);
  });

  it("text: matches (ignoring case), does not match, starts with, does not start with, blank, not blank", () => {
    expect(filtered(f("last"), "matches", "lovelace")).toEqual(["Ada", "Bo"]);
    expect(filtered(f("last"), "not_matches", "Lovelace")).toEqual(["=cmd|' /C calc'!A0", 'Émile, "Jr"']);
    expect(filtered(f("first"), "starts_with", "é")).toEqual(['Émile, "Jr"']);
    expect(filtered(f("first"), "not_starts_with", "B")).toEqual(["Ada", "=cmd|' /C calc'!A0", 'Émile, "Jr"']);
    expect(filtered(f("street"), "blank")).toHaveLength(4);
    expect(filtered(f("email"), "not_blank")).toEqual(["Ada"]);
  });

  it("number: equal, not equal (blanks included), less and greater than; money in dollars", () => {
    expect(filtered(f("age"), "eq", "8.5")).toEqual(["Bo"]);
    expect(filtered(f("age"), "ne", "35")).toEqual(["Bo", "=cmd|' /C calc'!A0", 'Émile, "Jr"']);
    expect(filtered(f("age"), "lt", "35")).toEqual(["Bo"]);
    expect(filtered(f("age"), "gt", "35")).toEqual(["=cmd|' /C calc'!A0"]);
    expect(filtered(K.personTotal, "eq", "45")).toEqual(['Émile, "Jr"']);
    expect(filtered(K.paid, "lt", "$25.01")).toEqual(["=cmd|' /C calc'!A0", 'Émile, "Jr"']);
    expect(filtered(f("gift"), "gt", "0")).toEqual(["Ada"]);
  });

  it("date: compares calendar days", () => {
    expect(filtered(K.completed, "eq", "2026-05-01")).toEqual(["Ada", "Bo"]);
    expect(filtered(K.completed, "ne", "2026-05-01")).toEqual(["=cmd|' /C calc'!A0", 'Émile, "Jr"']);
    expect(filtered(K.completed, "lt", "2026-05-03")).toEqual(["Ada", "Bo"]);
    expect(filtered(K.completed, "gt", "2026-05-01")).toEqual(["=cmd|' /C calc'!A0", 'Émile, "Jr"']);
    expect(filtered(f("dob"), "lt", "2000-01-01")).toEqual(["Ada"]);
  });

  it("option: is set, is not set, is set to and is not set to, by value or label, single or multiple choice", () => {
    expect(filtered(f("extras"), "set")).toEqual(["Ada", "Bo"]);
    expect(filtered(f("extras"), "not_set")).toEqual(["=cmd|' /C calc'!A0", 'Émile, "Jr"']);
    expect(filtered(f("extras"), "set_to", "meal")).toEqual(["Ada"]);
    expect(filtered(f("distance"), "set_to", "10 KM")).toEqual(["Ada", 'Émile, "Jr"']);
    expect(filtered(f("distance"), "not_set_to", "10k")).toEqual(["Bo", "=cmd|' /C calc'!A0"]);
  });

  it("boolean: is checked, is not checked (unanswered is not checked)", () => {
    expect(filtered(f("toque"), "checked")).toEqual(["Ada"]);
    expect(filtered(f("toque"), "not_checked")).toEqual(["Bo", "=cmd|' /C calc'!A0", 'Émile, "Jr"']);
  });

  it("applies every filter (and)", () => {
    expect(
      firstNames({
        filters_list: [
          { key: f("last"), op: "matches", value: "Lovelace" },
          { key: f("distance"), op: "set_to", value: "5k" },
        ],
      }),
    ).toEqual(["Bo"]);
  });

  it("refuses an operator of another kind and a value it cannot read", () => {
    const columns = reportColumns(form, "individuals");
    const col = (key: string) => columns.find((c) => c.key === key) as ReportColumn;
    expect(compileFilter(col(K.cartTotal), { op: "blank", value: "" })).toEqual({ ok: false, error: "“Is Blank” does not apply to Cart total" });
    expect(compileFilter(col(K.cartTotal), { op: "eq", value: "ten" })).toEqual({ ok: false, error: "Enter an amount such as 12.50" });
    expect(compileFilter(col(f("age")), { op: "gt", value: "1e3" })).toEqual({ ok: false, error: "Enter a number" });
    expect(compileFilter(col(K.completed), { op: "lt", value: "2026-02-30" })).toEqual({ ok: false, error: "Enter a date as YYYY-MM-DD" });
    expect(compileFilter(col(f("distance")), { op: "set_to", value: "marathon" })).toEqual({ ok: false, error: "Dist. has no option “marathon”" });
    expect(compileFilter(col(f("first")), { op: "matches", value: " " })).toEqual({ ok: false, error: "Enter a value to compare with" });
  });

  it("leaves out a saved filter that no longer fits and says so", () => {
    const table = run({
      filters_list: [
        { key: f("gone"), op: "matches", value: "x" },
        { key: f("age"), op: "matches", value: "x" },
      ],
    });
    expect(table.rows).toHaveLength(4);
    expect(table.warnings).toEqual([
      "A filter on a field that no longer exists was left out.",
      "A filter on Age was left out: “Matches” does not apply to Age.",
    ]);
  });
});

describe("sorting", () => {
  it("sorts by several keys, stably, numbers inside text by value, blanks last in either direction", () => {
    expect(
      firstNames({
        sorts_list: [
          { key: f("distance"), dir: "asc" },
          { key: f("first"), dir: "desc" },
        ],
      }),
    ).toEqual(["Bo", "=cmd|' /C calc'!A0", 'Émile, "Jr"', "Ada"]);
    expect(run({ fields_list: [K.cartNumber], sorts_list: [{ key: K.cartNumber, dir: "desc" }] }).rows.map((r) => r.cells[0])).toEqual(["10", "2", "1", "1"]);
    expect(firstNames({ sorts_list: [{ key: f("age"), dir: "desc" }] })).toEqual(["=cmd|' /C calc'!A0", "Ada", "Bo", 'Émile, "Jr"']);
    expect(firstNames({ sorts_list: [{ key: f("age"), dir: "asc" }] })).toEqual(["Bo", "Ada", "=cmd|' /C calc'!A0", 'Émile, "Jr"']);
    // Equal keys keep the load order.
    expect(firstNames({ sorts_list: [{ key: f("toque"), dir: "asc" }] })).toEqual(["Bo", "=cmd|' /C calc'!A0", 'Émile, "Jr"', "Ada"]);
  });
});

describe("grouping and totals", () => {
  it("groups by a column with counts and subtotals of money columns, summing a cart's columns once per cart", () => {
    const table = run({ fields_list: [f("first"), K.cartTotal, K.personTotal, f("age")], groups_list: [f("distance")] });
    expect(table.groups.map((g) => ({ text: g.text, count: g.count, subtotals: g.subtotals }))).toEqual([
      // 5 km: Bo (cart 1, 90.00) and Zed (cart 2, 35.00).
      { text: "5 km", count: 2, subtotals: [null, "125.00", "75.00", null] },
      // 10 km: Ada (cart 1, 90.00) and Émile (cart 10, 45.00).
      { text: "10 km", count: 2, subtotals: [null, "135.00", "95.00", null] },
    ]);
    expect(table.rows.map((r) => r.cells[0])).toEqual(["Bo", "=cmd|' /C calc'!A0", "Ada", 'Émile, "Jr"']);
    // Cart 1 counts once in the totals though two of its people are listed.
    expect(table.totals).toEqual([null, "170.00", "170.00", "83.5"]);
    expect(totalsCells(table)).toEqual(["Total: 4 people", "170.00", "170.00", "83.5"]);
  });

  it("nests a second group and sorts groups in the direction a sort on the same column asks", () => {
    const table = run({
      fields_list: [f("first"), K.personTotal],
      groups_list: [f("distance"), f("toque")],
      sorts_list: [{ key: f("distance"), dir: "desc" }],
    });
    expect(table.groups.map((g) => [g.level, g.label, g.text, g.count])).toEqual([
      [0, "Dist.", "10 km", 2],
      [0, "Dist.", "5 km", 2],
      [1, "Toque", "", 1],
      [1, "Toque", "Yes", 1],
      [1, "Toque", "", 2],
    ]);
    expect(table.rows.map((r) => r.cells[0])).toEqual(['Émile, "Jr"', "Ada", "Bo", "=cmd|' /C calc'!A0"]);
  });

  it("pages rows with each group's header before its first row on the page, marked continued on later pages", () => {
    const table = run({ fields_list: [f("first")], groups_list: [f("distance")] });
    const first = reportPage(table, 1, 3);
    expect(first).toMatchObject({ page: 1, pageCount: 2, from: 0, to: 3 });
    expect(first.lines.map((l) => (l.kind === "group" ? `# ${l.text} (${l.count})${l.continued ? " cont." : ""}` : l.cells[0]))).toEqual([
      "# 5 km (2)",
      "Bo",
      "=cmd|' /C calc'!A0",
      "# 10 km (2)",
      "Ada",
    ]);
    const second = reportPage(table, 2, 3);
    expect(second.lines.map((l) => (l.kind === "group" ? `# ${l.text}${l.continued ? " cont." : ""}` : l.cells[0]))).toEqual(["# 10 km cont.", 'Émile, "Jr"']);
    expect(reportPage(table, 99, 3).page).toBe(2);
    expect(reportPage(table, Number.NaN, 3).page).toBe(1);
    expect(reportPage(run({ filters_list: [{ key: f("first"), op: "matches", value: "nobody" }] }), 1).lines).toEqual([]);
  });

  it("puts the count in the first column without a sum, and sums every summable number column", () => {
    const table = runReport(
      { type: "carts", fields_list: [K.cartTotal, K.paid, K.people, K.cartNumber], sorts_list: [], groups_list: [], filters_list: [] },
      form,
      carts,
      { allowSensitive: true },
    );
    expect(totalsCells(table)).toEqual(["170.00", "115.00", "4", "Total: 3 carts"]);
  });
});

describe("sensitive columns", () => {
  const sensitiveLayout = layout({
    fields_list: [f("first"), f("dob"), K.cartEmail, f("street")],
    sorts_list: [{ key: f("dob"), dir: "asc" }],
    groups_list: [f("phone")],
    filters_list: [{ key: f("dob"), op: "lt", value: "2000-01-01" }],
  });

  it("shows them to those who may see them", () => {
    const table = runReport(sensitiveLayout, form, carts, { allowSensitive: true });
    expect(table.columns.map((c) => c.label)).toEqual(["First name", "Born on", "Cart email", "Street Address"]);
    expect(table.groupColumns.map((c) => c.label)).toEqual(["Cell"]);
    expect(table.rows.map((r) => r.cells)).toEqual([["Ada", "1990-12-10", "ada@example.com", ""]]);
    expect(table.hiddenFilters).toBe(0);
  });

  it("drops them from the columns, sorts and groups of others; a saved filter on one still applies, unshown", () => {
    const table = runReport(sensitiveLayout, form, carts, { allowSensitive: false });
    expect(table.columns.map((c) => c.label)).toEqual(["First name"]);
    expect(table.groupColumns).toEqual([]);
    expect(table.rows.map((r) => r.cells)).toEqual([["Ada"]]);
    expect(table.hiddenFilters).toBe(1);
    expect(reportCsv(table)).not.toMatch(/1990|ada@example|Born|Cell/);
  });

  it("leaves them out of the default report of those who may not see them", () => {
    const columns = reportColumns(form, "individuals");
    const open = defaultLayout("individuals", columns, false);
    expect(open.fields_list).not.toContain(f("dob"));
    expect(open.fields_list).not.toContain(K.cartEmail);
    expect(open.fields_list).toContain(f("first"));
    expect(open.sorts_list).toEqual([
      { key: K.cartNumber, dir: "asc" },
      { key: K.personNumber, dir: "asc" },
    ]);
    expect(defaultLayout("individuals", columns, true).fields_list).toHaveLength(columns.length);
  });
});

describe("CSV", () => {
  const table = run({ fields_list: [K.cartNumber, f("first"), K.personTotal, K.paid], groups_list: [f("distance")] });
  const csv = reportCsv(table);

  it("starts with the UTF-8 byte order mark, quotes every cell and ends each line with CRLF", () => {
    const bytes = new TextEncoder().encode(csv);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.endsWith("\r\n")).toBe(true);
    expect(csv.replaceAll("\r\n", "")).not.toMatch(/[\r\n]/);
    const lines = csv.slice(1).split("\r\n").slice(0, -1);
    expect(lines).toEqual([
      '"Dist.","Cart No.","First name","Individual total","Paid (net of refunds)"',
      '"5 km","1","Bo","40.00","90.00"',
      `"5 km","2","'=cmd|' /C calc'!A0","35.00","25.00"`,
      '"10 km","1","Ada","50.00","90.00"',
      '"10 km","10","Émile, ""Jr""","45.00","0.00"',
      '"Total: 4 people","","","170.00","115.00"',
    ]);
  });

  it("guards cells a spreadsheet would run as formulas, but not plain numbers", () => {
    expect(csvSafe("=SUM(A1)")).toBe("'=SUM(A1)");
    expect(csvSafe("+1 613")).toBe("'+1 613");
    expect(csvSafe("-x")).toBe("'-x");
    expect(csvSafe("@here")).toBe("'@here");
    expect(csvSafe("\tTab")).toBe("'\tTab");
    expect(csvSafe("-12.50")).toBe("-12.50");
    expect(csvSafe("12")).toBe("12");
    expect(csvSafe("a=b")).toBe("a=b");
  });

  it("has totals that equal the sum of its rows", () => {
    const carts3 = runReport(
      { type: "carts", fields_list: [K.cartNumber, K.cartTotal, K.paid], sorts_list: [], groups_list: [], filters_list: [] },
      form,
      carts,
      { allowSensitive: true },
    );
    const rows = reportCsv(carts3)
      .slice(1)
      .trimEnd()
      .split("\r\n")
      .slice(1)
      .map((line) => line.split(",").map((cell) => cell.replaceAll('"', "")));
    const totals = rows.pop()!;
    const sum = (j: number) => rows.reduce((s, r) => s + Math.round(Number(r[j]) * 100), 0);
    expect(totals).toEqual(["Total: 3 carts", "170.00", "115.00"]);
    expect([sum(1), sum(2)]).toEqual([17000, 11500]);
  });
});

describe("definitions", () => {
  const base = { name: "Lovelaces", type: "individuals", is_shared: false, fields_list: [f("first")], sorts_list: [], groups_list: [], filters_list: [] };

  it("parses a definition, trimming the name and dropping repeated columns", () => {
    const parsed = reportDefinitionSchema.parse({ ...base, name: "  Lovelaces ", fields_list: [f("first"), f("first"), K.cartNumber] });
    expect(parsed).toMatchObject({ name: "Lovelaces", fields_list: [f("first"), K.cartNumber] });
  });

  it("refuses a blank or long name, no columns, a third group and an unknown operator", () => {
    const issues = (input: object) => reportDefinitionSchema.safeParse({ ...base, ...input }).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(issues({ name: " " })).toEqual(["name: Give the report a name"]);
    expect(issues({ name: "x".repeat(101) })).toEqual(["name: At most 100 characters"]);
    expect(issues({ fields_list: [] })).toEqual(["fields_list: Choose at least one column"]);
    expect(issues({ groups_list: ["a", "b", "c"] })).toEqual(["groups_list: Group by at most 2 columns"]);
    expect(issues({ filters_list: [{ key: "a", op: "like", value: "" }] })).toEqual(["filters_list.0.op: Choose an operator"]);
    expect(issues({ type: "people" })).toEqual(["type: Choose individuals or carts"]);
  });

  it("checks keys and filters against the columns, storing an option filter as the option's value", () => {
    const columns = reportColumns(form, "individuals");
    const definition = reportDefinitionSchema.parse({
      ...base,
      filters_list: [
        { key: f("distance"), op: "set_to", value: "10 km" },
        { key: f("toque"), op: "checked", value: "ignored" },
      ],
    });
    const checked = checkDefinition(definition, columns, false);
    expect(checked.ok && checked.value.filters_list).toEqual([
      { key: f("distance"), op: "set_to", value: "10k" },
      { key: f("toque"), op: "checked", value: "" },
    ]);
    const bad = reportDefinitionSchema.parse({
      ...base,
      fields_list: [f("first"), f("dob")],
      sorts_list: [{ key: "cart.nope", dir: "asc" }],
      groups_list: [f("street")],
      filters_list: [
        { key: K.cartTotal, op: "matches", value: "x" },
        { key: K.cartTotal, op: "gt", value: "lots" },
        { key: f("phone"), op: "blank", value: "" },
      ],
    });
    expect(checkDefinition(bad, columns, false)).toEqual({
      ok: false,
      errors: {
        fields_list: "Choose columns from the list",
        "sort.0.key": "Choose a column from the list",
        "group.0": "Choose a column from the list",
        "filter.0.op": "“Matches” does not apply to Cart total",
        "filter.1.value": "Enter an amount such as 12.50",
        "filter.2.key": "Choose a column from the list",
      },
    });
    // Those who may see sensitive columns may use them.
    expect(checkDefinition({ ...bad, sorts_list: [], filters_list: [] }, columns, true).ok).toBe(true);
  });

  it("keeps the sensitive parts of a saved report when someone who cannot see them saves it", () => {
    const columns = reportColumns(form, "individuals");
    const saved: ReportLayout = {
      type: "individuals",
      fields_list: [f("first"), f("dob"), f("last")],
      sorts_list: [{ key: f("dob"), dir: "desc" }],
      groups_list: [f("street")],
      filters_list: [
        { key: f("phone"), op: "not_blank", value: "" },
        { key: f("last"), op: "matches", value: "x" },
      ],
    };
    const posted: ReportDefinition = {
      name: "R",
      type: "individuals",
      is_shared: true,
      fields_list: [f("last")],
      sorts_list: [{ key: f("last"), dir: "asc" }],
      groups_list: [f("distance"), f("toque")],
      filters_list: [],
    };
    expect(keepHiddenParts(saved, posted, columns)).toEqual({
      ...posted,
      fields_list: [f("last"), f("dob")],
      sorts_list: [
        { key: f("dob"), dir: "desc" },
        { key: f("last"), dir: "asc" },
      ],
      groups_list: [f("street"), f("distance")],
      filters_list: [{ key: f("phone"), op: "not_blank", value: "" }],
    });
  });
});

describe("a layout in words", () => {
  it("says the filters with option labels, the sorts and the groups, hiding what the viewer may not see", () => {
    const columns = reportColumns(form, "individuals");
    const saved: ReportLayout = {
      type: "individuals",
      fields_list: [f("first")],
      sorts_list: [
        { key: f("age"), dir: "desc" },
        { key: f("dob"), dir: "asc" },
      ],
      groups_list: [f("distance")],
      filters_list: [
        { key: f("distance"), op: "set_to", value: "10k" },
        { key: f("toque"), op: "checked", value: "" },
        { key: f("dob"), op: "lt", value: "2000-01-01" },
      ],
    };
    expect(describeLayout(saved, columns, false)).toEqual({
      filters: ["Dist. is set to “10 km”", "Toque is checked"],
      sorts: ["Age (descending)"],
      groups: ["Dist."],
      hiddenFilters: 1,
    });
    expect(describeLayout(saved, columns, true).filters).toEqual(["Dist. is set to “10 km”", "Toque is checked", "Born on less than “2000-01-01”"]);
  });
});

describe("who may see and change a form's reports", () => {
  const form = { id: "r1", clubId: "club1", siteId: "site1" };
  const as = (type: RoleType, fields: Partial<RoleGrant> = {}) =>
    reportPermissions({ userId: "u1", roles: [{ id: "g1", type, clubId: null, siteId: null, scope: null, config: {}, ...fields }] }, form);
  const club = { clubId: "club1" };
  const thisForm = { scope: "r1" };

  it("gives each role of section 6 its rights, sensitive columns only to those who may see the carts", () => {
    expect(as("org_admin", club)).toEqual({ view: true, edit: true, sensitive: true });
    expect(as("all_registrations", club)).toEqual({ view: true, edit: true, sensitive: true });
    expect(as("financial_admin", club)).toEqual({ view: true, edit: false, sensitive: true });
    expect(as("registration_admin", thisForm)).toEqual({ view: true, edit: true, sensitive: true });
    expect(as("registration_finance", thisForm)).toEqual({ view: true, edit: false, sensitive: true });
    expect(as("registration_readonly", thisForm)).toEqual({ view: true, edit: false, sensitive: true });
    expect(as("report_edit_view", thisForm)).toEqual({ view: true, edit: true, sensitive: false });
    expect(as("report_view", thisForm)).toEqual({ view: true, edit: false, sensitive: false });
  });

  it("gives nothing on another form or club, to unrelated roles, or to nobody", () => {
    const none = { view: false, edit: false, sensitive: false };
    expect(as("report_edit_view", { scope: "r2" })).toEqual(none);
    expect(as("org_admin", { clubId: "club2" })).toEqual(none);
    expect(as("division_reports", club)).toEqual(none);
    expect(as("all_races", club)).toEqual(none);
    expect(reportPermissions(null, form)).toEqual(none);
  });

  it("follows a super admin's flags: registrations for reports, carts for their private columns", () => {
    expect(as("system_admin", { config: { registrations: true } })).toEqual({ view: true, edit: true, sensitive: true });
    expect(as("system_admin", { config: { carts: true } })).toEqual({ view: true, edit: false, sensitive: true });
    expect(as("system_admin", { config: { races: true } })).toEqual({ view: false, edit: false, sensitive: false });
  });
});
