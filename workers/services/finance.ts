/**
 * The finance pages' queries: a club's or a form's transactions with filters and pages, their CSV, and
 * the refund status of each payment. Every query is scoped by club ids the caller's roles reached.
 */
import { and, desc, eq, gte, inArray, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import * as z from "zod";
import { spreadsheetCsv } from "../../core/entity/csv";
import { formatMoney } from "../../core/money/money";
import { refundStatus, TRANSACTION_TYPES, type RefundStatus } from "../../core/payments/ledger";
import { carts, registrations, transactions, type Db } from "../../schema/d1";
import { type TransactionRow } from "./payments";
import { ledgerOf } from "./payment-ledger";

export const FINANCE_PAGE_SIZE = 50;
/** A CSV export holds at most this many rows; narrow the dates for more. */
export const FINANCE_CSV_LIMIT = 20_000;

const STATUSES = ["all", "pending", "completed", "void"] as const;

/** The filter bar, as the query string carries it; anything unknown falls back to "all". */
export const financeFilterSchema = z.object({
  type: z.enum(["all", ...TRANSACTION_TYPES]).catch("all"),
  status: z.enum(STATUSES).catch("all"),
  q: z
    .string()
    .max(200)
    .catch("")
    .transform((v) => v.trim()),
  from: z.iso.date().optional().catch(undefined),
  to: z.iso.date().optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});
export type FinanceFilter = z.infer<typeof financeFilterSchema>;

export function financeFilterOf(url: URL): FinanceFilter {
  return financeFilterSchema.parse(Object.fromEntries(url.searchParams));
}

export interface FinanceScope {
  clubIds: readonly string[];
  registrationId?: string;
}

export interface FinanceRow {
  id: string;
  type: string;
  amount: number;
  provider: string;
  method: string | null;
  payer: string;
  payee: string;
  createdAt: number;
  completionTime: number | null;
  isVoid: boolean;
  parentTransaction: string | null;
  note: string;
  cartId: string | null;
  cartNumber: number | null;
  cartEmail: string | null;
  registrationId: string | null;
  registrationName: string | null;
  /** Payments only: none, partial or refunded; and what can still be refunded. */
  refundStatus: RefundStatus | null;
  refundable: number;
  batchToTime: number | null;
}

const DAY_MS = 86_400_000;

function whereOf(scope: FinanceScope, filter: FinanceFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [inArray(transactions.clubId, scope.clubIds.length > 0 ? [...scope.clubIds] : [""])];
  if (scope.registrationId) conditions.push(eq(transactions.registrationId, scope.registrationId));
  if (filter.type !== "all") conditions.push(eq(transactions.type, filter.type));
  if (filter.status === "pending") conditions.push(and(isNull(transactions.completionTime), eq(transactions.isVoid, false)));
  if (filter.status === "completed") conditions.push(and(isNotNull(transactions.completionTime), eq(transactions.isVoid, false)));
  if (filter.status === "void") conditions.push(eq(transactions.isVoid, true));
  if (filter.from) conditions.push(gte(transactions.createdAt, Date.parse(`${filter.from}T00:00:00Z`)));
  if (filter.to) conditions.push(lt(transactions.createdAt, Date.parse(`${filter.to}T00:00:00Z`) + DAY_MS));
  if (filter.q) {
    const like = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const number = /^\d{1,9}$/.test(filter.q) ? Number(filter.q) : null;
    conditions.push(
      or(
        sql`${transactions.payer} LIKE ${like} ESCAPE '\\'`,
        sql`${transactions.payee} LIKE ${like} ESCAPE '\\'`,
        sql`${carts.email} LIKE ${like} ESCAPE '\\'`,
        sql`${transactions.note} LIKE ${like} ESCAPE '\\'`,
        number !== null ? eq(carts.cartNumber, number) : undefined,
        eq(transactions.id, filter.q),
      ),
    );
  }
  return and(...conditions);
}

function selectRows(db: Db) {
  return db
    .select({
      t: transactions,
      cartNumber: carts.cartNumber,
      cartEmail: carts.email,
      registrationName: registrations.name,
    })
    .from(transactions)
    .leftJoin(carts, eq(carts.id, transactions.cartId))
    .leftJoin(registrations, eq(registrations.id, transactions.registrationId));
}

/** Refund status needs each payment's refunds: one query for the page's payments, not one per row. */
async function withRefunds(
  db: Db,
  rows: { t: TransactionRow; cartNumber: number | null; cartEmail: string | null; registrationName: string | null }[],
): Promise<FinanceRow[]> {
  const paymentIds = rows.filter((r) => r.t.type === "payment").map((r) => r.t.id);
  const children: TransactionRow[] = [];
  // D1 binds at most 100 values per statement.
  for (let i = 0; i < paymentIds.length; i += 90) {
    children.push(
      ...(await db
        .select()
        .from(transactions)
        .where(inArray(transactions.parentTransaction, paymentIds.slice(i, i + 90)))),
    );
  }
  const ledger = children.map(ledgerOf);
  return rows.map(({ t, cartNumber, cartEmail, registrationName }) => {
    const isPayment = t.type === "payment";
    const mine = ledger.filter((c) => c.parentTransaction === t.id);
    const refunded = mine.filter((c) => c.type === "refund" && c.completionTime !== null && !c.isVoid).reduce((sum, c) => sum + c.amount, 0);
    const live = isPayment && t.completionTime !== null && !t.isVoid;
    return {
      id: t.id,
      type: t.type,
      amount: t.amount,
      provider: t.provider,
      method: t.method,
      payer: t.payer,
      payee: t.payee,
      createdAt: t.createdAt,
      completionTime: t.completionTime,
      isVoid: t.isVoid,
      parentTransaction: t.parentTransaction,
      note: t.note,
      cartId: t.cartId,
      cartNumber,
      cartEmail,
      registrationId: t.registrationId,
      registrationName,
      refundStatus: isPayment ? refundStatus(ledgerOf(t), mine) : null,
      refundable: live ? Math.max(0, t.amount - refunded) : 0,
      batchToTime: t.batchToTime,
    };
  });
}

export interface FinancePage {
  rows: FinanceRow[];
  total: number;
  page: number;
  pages: number;
  /** Sums over every matching row (not only this page), by type, counting only completed, not void ones. */
  sums: Record<string, number>;
}

export async function listTransactions(db: Db, scope: FinanceScope, filter: FinanceFilter): Promise<FinancePage> {
  const where = whereOf(scope, filter);
  const [countRow] = await db
    .select({ n: sql<number>`COUNT(*)` })
    .from(transactions)
    .leftJoin(carts, eq(carts.id, transactions.cartId))
    .where(where);
  const sums = await db
    .select({
      type: transactions.type,
      sum: sql<number>`COALESCE(SUM(CASE WHEN ${transactions.completionTime} IS NOT NULL AND ${transactions.isVoid} = 0 THEN ${transactions.amount} ELSE 0 END), 0)`,
    })
    .from(transactions)
    .leftJoin(carts, eq(carts.id, transactions.cartId))
    .where(where)
    .groupBy(transactions.type);
  const total = countRow?.n ?? 0;
  const pages = Math.max(1, Math.ceil(total / FINANCE_PAGE_SIZE));
  const page = Math.min(filter.page, pages);
  const rows = await selectRows(db)
    .where(where)
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(FINANCE_PAGE_SIZE)
    .offset((page - 1) * FINANCE_PAGE_SIZE);
  return { rows: await withRefunds(db, rows), total, page, pages, sums: Object.fromEntries(sums.map((s) => [s.type, s.sum])) };
}

/** One transaction with its context, if it is inside the scope. */
export async function financeRowById(db: Db, scope: FinanceScope, id: string): Promise<FinanceRow | null> {
  const conditions = [eq(transactions.id, id), inArray(transactions.clubId, scope.clubIds.length > 0 ? [...scope.clubIds] : [""])];
  if (scope.registrationId) conditions.push(eq(transactions.registrationId, scope.registrationId));
  const rows = await selectRows(db)
    .where(and(...conditions))
    .limit(1);
  return (await withRefunds(db, rows))[0] ?? null;
}

const CSV_HEADERS = [
  "Transaction",
  "Type",
  "Status",
  "Created (UTC)",
  "Completed (UTC)",
  "Form",
  "Cart No.",
  "Cart email",
  "Payer",
  "Payee",
  "Provider",
  "Method",
  "Amount",
  "Refund status",
  "Parent",
  "Note",
];

function statusOf(row: FinanceRow): string {
  if (row.isVoid) return "void";
  return row.completionTime === null ? "pending" : "completed";
}

function isoOf(time: number | null): string {
  return time === null ? "" : new Date(time).toISOString().replace("T", " ").slice(0, 19);
}

/** The filtered transactions as CSV a spreadsheet opens: UTF-8 with a BOM, CRLF, every cell quoted, a totals row. */
export async function transactionsCsv(db: Db, scope: FinanceScope, filter: FinanceFilter): Promise<string> {
  const rows = await withRefunds(
    db,
    await selectRows(db).where(whereOf(scope, filter)).orderBy(desc(transactions.createdAt), desc(transactions.id)).limit(FINANCE_CSV_LIMIT),
  );
  const cells = rows.map((row) => [
    row.id,
    row.type,
    statusOf(row),
    isoOf(row.createdAt),
    isoOf(row.completionTime),
    row.registrationName ?? "",
    row.cartNumber === null ? "" : String(row.cartNumber),
    row.cartEmail ?? "",
    row.payer,
    row.payee,
    row.provider,
    row.method ?? "",
    formatMoney(row.amount),
    row.refundStatus ?? "",
    row.parentTransaction ?? "",
    row.note,
  ]);
  const net = rows
    .filter((r) => !r.isVoid && r.completionTime !== null)
    .reduce((sum, r) => sum + (r.type === "payment" ? r.amount : r.type === "refund" ? -r.amount : 0), 0);
  const totals = ["Total (completed payments less refunds)", "", "", "", "", "", "", "", "", "", "", "", formatMoney(net), "", "", ""];
  return spreadsheetCsv(CSV_HEADERS, [...cells, totals]);
}
