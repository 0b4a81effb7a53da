// Registration reports (core/registration/report.ts, pure): a 20-field form with 10,000 people in about
// 4,000 complete carts. Times the engine (filters, sorts, two groups with subtotals, totals), the CSV of the
// whole report, and the server render of the report table component (one 200-row page, and every row).
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { RegistrationReportTable } from "../app/components/registration-report-table";
import type { FormElement, StoredValue } from "../core/forms/model";
import { makeElement } from "../core/forms/test-elements";
import { elementColumnKey, reportColumns, type ReportCartData } from "../core/registration/report-columns";
import { reportCsv, reportPage, runReport, totalsCells, type ReportTable } from "../core/registration/report";
import { type ReportLayout } from "../core/registration/report-definition";
import { percentile } from "./http";
import { report } from "./report";

const PEOPLE = 10_000;
const CARTS = 4_000;
const FIELDS = 20;
const RUNS = 20;

/** Names and contact details, the usual choices, a donation and codes: 20 input fields. */
function twentyFieldForm(): FormElement[] {
  const option = (id: string, caption: string, choices: string[]) =>
    makeElement("option", { id, caption, options_list: choices.map((c, i) => ({ id: `${id}-${i}`, display: c })) });
  const elements = [
    makeElement("text", { id: "first", caption: "First name" }),
    makeElement("text", { id: "last", caption: "Last name" }),
    makeElement("email", { id: "email", caption: "Email" }),
    makeElement("phone", { id: "phone", caption: "Cell Phone" }),
    makeElement("dob", { id: "dob", caption: "Date of birth" }),
    makeElement("gender", { id: "gender", caption: "Gender" }),
    makeElement("text", { id: "street", caption: "Street address" }),
    makeElement("city", { id: "city", caption: "City" }),
    makeElement("province", { id: "province", caption: "Province" }),
    makeElement("text", { id: "postal", caption: "Postal code" }),
    option("distance", "Distance", ["5 km", "10 km", "21 km", "42 km"]),
    option("wave", "Start wave", ["A", "B", "C", "D", "E"]),
    option("shirt", "Shirt size", ["XS", "S", "M", "L", "XL"]),
    makeElement("multioption", {
      id: "extras",
      caption: "Extras",
      options_list: ["Meal", "Bus", "Medal engraving"].map((d, i) => ({ id: `x${i}`, display: d })),
    }),
    makeElement("checkbox", { id: "toque", caption: "Toque", price_1: 2000 }),
    makeElement("yesno", { id: "member", caption: "Club member?" }),
    makeElement("number", { id: "years", caption: "Years racing" }),
    makeElement("donation", { id: "gift", caption: "Donation" }),
    makeElement("waiver", { id: "waiver", caption: "Waiver" }),
    makeElement("discount", { id: "codes", caption: "Codes" }),
  ];
  return elements.map((e, ordinal) => ({ ...e, ordinal }));
}

function cartsOf(count: number, people: number): ReportCartData[] {
  const v = (value: unknown): StoredValue => ({ v: value, p: 0 });
  const carts: ReportCartData[] = [];
  let person = 0;
  for (let c = 0; c < count; c++) {
    // 2 or 3 people per cart, 10,000 in all.
    const size = Math.min(people - person, c < people - 2 * count ? 3 : 2);
    const individuals = Array.from({ length: size }, (_, i) => {
      const n = person + i;
      return {
        id: `p${n}`,
        ordinal: i + 1,
        isRemoved: false,
        isComplete: true,
        priceTotal: 3000 + (n % 4) * 1000,
        values: {
          first: v(`First${n}`),
          last: v(`Family${c}`),
          email: v({ addresses: `person${n}@example.com`, optin: true }),
          phone: v("6135550199"),
          dob: v(`${1950 + (n % 60)}-0${1 + (n % 9)}-1${n % 10}`),
          gender: v(["F", "M", "O"][n % 3]),
          street: v(`${n} Main Street`),
          city: v("Ottawa"),
          province: v("ON"),
          postal: v("K1A 0B1"),
          distance: v(`distance-${n % 4}`),
          wave: v(`wave-${n % 5}`),
          shirt: v(`shirt-${n % 5}`),
          extras: v(n % 2 ? ["x0", "x2"] : ["x1"]),
          toque: v(n % 3 === 0),
          member: v(n % 2 ? "yes" : "no"),
          years: v(n % 30),
          gift: v(n % 7 === 0 ? 2500 : 0),
          waiver: v(true),
        },
      };
    });
    person += size;
    carts.push({
      id: `c${c}`,
      legacyId: null,
      cartNumber: c + 1,
      email: `cart${c}@example.com`,
      isComplete: true,
      isRemoved: false,
      completedAt: Date.UTC(2026, 3, 1) + c * 600_000,
      total: individuals.reduce((s, p) => s + p.priceTotal, 0),
      paid: individuals.reduce((s, p) => s + p.priceTotal, 0) - (c % 50 === 0 ? 1000 : 0),
      values: { codes: v(c % 10 === 0 ? "TEAM" : null) },
      individuals,
    });
  }
  return carts;
}

function time(runs: number, work: () => void): number[] {
  for (let i = 0; i < 3; i++) work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

const mean = (times: number[]) => times.reduce((a, b) => a + b, 0) / times.length;

function renderTable(table: ReportTable, lines: ReturnType<typeof reportPage>["lines"]): string {
  return renderToString(
    createElement(RegistrationReportTable, {
      id: "report",
      caption: "Bench report",
      columns: table.columns.map((c) => ({ key: c.key, label: c.label, numeric: c.kind === "number" })),
      lines,
      totals: totalsCells(table),
      unit: { one: "person", many: "people" },
    }),
  );
}

export function runRegistrationReport(): void {
  const elements = twentyFieldForm();
  const form = { elements, firstNameFieldId: "first", lastNameFieldId: "last", timeZone: "America/Toronto" };
  const carts = cartsOf(CARTS, PEOPLE);
  const f = elementColumnKey;
  // Every column, two filters that keep most rows, two groups and two sorts: the heaviest report a club makes.
  const layout: ReportLayout = {
    type: "individuals",
    fields_list: reportColumns(form, "individuals").map((c) => c.key),
    filters_list: [
      { key: f("distance"), op: "not_set_to", value: "42 km" },
      { key: f("first"), op: "not_starts_with", value: "x" },
    ],
    groups_list: [f("distance"), f("wave")],
    sorts_list: [
      { key: f("last"), dir: "asc" },
      { key: f("first"), dir: "desc" },
    ],
  };
  const options = { allowSensitive: true };
  const table = runReport(layout, form, carts, options);
  const extra = { people: PEOPLE, carts: CARTS, fields: FIELDS, columns: table.columns.length, rows: table.rows.length, runs: RUNS };

  const engine = time(RUNS, () => runReport(layout, form, carts, options));
  report("registration_report_engine_10k_people_mean", mean(engine), "ms", extra);
  report("registration_report_engine_10k_people_p95", percentile(engine, 95), "ms", extra);

  let csv = "";
  const csvTimes = time(RUNS, () => {
    csv = reportCsv(table);
  });
  report("registration_report_csv_10k_people_mean", mean(csvTimes), "ms", extra);
  report("registration_report_csv_10k_people_size", new TextEncoder().encode(csv).length / 1024, "KiB", extra);

  const page = reportPage(table, 1);
  const pageTimes = time(RUNS, () => renderTable(table, page.lines));
  report("registration_report_render_page_200_rows_mean", mean(pageTimes), "ms", { ...extra, rowsRendered: page.to - page.from });
  const all = reportPage(table, 1, table.rows.length);
  const allTimes = time(5, () => renderTable(table, all.lines));
  report("registration_report_render_all_rows_mean", mean(allTimes), "ms", { ...extra, rowsRendered: all.to - all.from, runs: 5 });
}
