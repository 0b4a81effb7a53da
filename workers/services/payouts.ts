/**
 * Bank accounts and payouts (platform.md section 3: BankAccount, PendingBankAccount; remittance
 * transactions with batch_from_time and batch_to_time). A club asks for a bank account; a System
 * Administrator approves or denies it. A remittance batch sums what each merchant club is owed after fees
 * and refunds (core/payments remittanceBatch) and writes one remittance per club, marking what it took.
 */
import { uniqueConstraintOf } from "../../schema/d1/errors";
import { and, asc, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { remittanceBatch, SYSTEM_PAYEE, type BatchTransaction, type ClubBatchLine, type TransactionType } from "../../core/payments/ledger";
import { bankAccounts, clubs, pendingBankAccounts, transactions, type Db } from "../../schema/d1";
import { sendMail } from "../mail/mailer";

type Statement = Parameters<Db["batch"]>[0][number];

export const PAYOUT_MESSAGES = {
  decided: "This request was already decided.",
  emptyBatch: "Nothing to pay out between those dates.",
  badWindow: "The end date must be after the start date.",
} as const;

export interface BankAccountRequest {
  clubId: string;
  name: string;
  email: string;
  kind: "remittance" | "merchant";
  accountLast4: string;
  requestedBy: string;
}

export async function requestBankAccount(db: Db, request: BankAccountRequest, now: number): Promise<string> {
  const id = crypto.randomUUID();
  await db.insert(pendingBankAccounts).values({ id, createdAt: now, fieldMtimes: {}, ...request });
  return id;
}

export async function bankAccountsOf(db: Db, clubIds: readonly string[]) {
  if (clubIds.length === 0) return { accounts: [], pending: [] };
  const [accounts, pending] = await Promise.all([
    db
      .select()
      .from(bankAccounts)
      .where(inArray(bankAccounts.clubId, [...clubIds]))
      .orderBy(asc(bankAccounts.name)),
    db
      .select()
      .from(pendingBankAccounts)
      .where(inArray(pendingBankAccounts.clubId, [...clubIds]))
      .orderBy(desc(pendingBankAccounts.createdAt)),
  ]);
  return { accounts, pending };
}

/** Requests waiting for a decision, oldest first, with their club's name. */
export async function pendingRequests(db: Db) {
  return db
    .select({ request: pendingBankAccounts, clubName: clubs.name })
    .from(pendingBankAccounts)
    .innerJoin(clubs, eq(clubs.id, pendingBankAccounts.clubId))
    .where(and(isNull(pendingBankAccounts.approvedTime), isNull(pendingBankAccounts.deniedTime)))
    .orderBy(asc(pendingBankAccounts.createdAt))
    .limit(200);
}

/**
 * Decides a request. Approving makes the BankAccount, which becomes the club's account if it has none; the
 * account row is written only while the request is still undecided, in the same batch that decides it, so two
 * administrators deciding at once make one account. The club hears either way, by e-mail to the address the
 * request gave.
 */
export async function decideRequest(
  env: Env,
  db: Db,
  requestId: string,
  decision: "approve" | "deny",
  deciderId: string,
  now: number,
): Promise<{ ok: true } | { ok: false; error: string }> {
  const [found] = await db
    .select({ request: pendingBankAccounts, clubName: clubs.name })
    .from(pendingBankAccounts)
    .innerJoin(clubs, eq(clubs.id, pendingBankAccounts.clubId))
    .where(eq(pendingBankAccounts.id, requestId))
    .limit(1);
  const request = found?.request;
  if (!request || request.approvedTime !== null || request.deniedTime !== null) return { ok: false, error: PAYOUT_MESSAGES.decided };
  const undecided = and(eq(pendingBankAccounts.id, requestId), isNull(pendingBankAccounts.approvedTime), isNull(pendingBankAccounts.deniedTime));
  let won: boolean;
  if (decision === "deny") {
    won = (await db.update(pendingBankAccounts).set({ deniedTime: now }).where(undecided).returning({ id: pendingBankAccounts.id })).length === 1;
  } else {
    const accountId = crypto.randomUUID();
    const [, decided] = await db.batch([
      // Columns in the table's order: id, created_at, field_mtimes, name, display_name, user_id, club_id, kind, account_last4.
      db
        .insert(bankAccounts)
        .select(
          sql`SELECT ${accountId}, ${now}, '{}', name, name || ' ····' || account_last4, ${deciderId}, club_id, kind, account_last4 FROM pending_bank_accounts WHERE id = ${requestId} AND approved_time IS NULL AND denied_time IS NULL`,
        ),
      db.update(pendingBankAccounts).set({ approvedTime: now, accountId }).where(undecided).returning({ id: pendingBankAccounts.id }),
      db
        .update(clubs)
        .set({ bankaccountId: accountId })
        .where(and(eq(clubs.id, request.clubId), isNull(clubs.bankaccountId), sql`EXISTS (SELECT 1 FROM bank_accounts WHERE id = ${accountId})`)),
    ]);
    won = decided.length === 1;
  }
  if (!won) return { ok: false, error: PAYOUT_MESSAGES.decided };
  const account = `${request.name} ····${request.accountLast4}`;
  await sendMail(env, db, {
    to: request.email,
    subject: decision === "approve" ? `Bank account approved for ${found.clubName}` : `Bank account not approved for ${found.clubName}`,
    text:
      decision === "approve"
        ? `The bank account ${account} is approved for ${found.clubName}. Payouts of card payments go to it from the next payout batch.`
        : `The bank account ${account} was not approved for ${found.clubName}. Check its details and send a new request from the club's Finance page, or reply to ask why.`,
  }).catch((error: unknown) => console.error("Bank account decision mail failed", requestId, error));
  return { ok: true };
}

export interface BatchPreviewLine extends ClubBatchLine {
  clubName: string;
  bankAccount: string | null;
}

/** Card money the platform collected for merchant clubs (their own connected accounts are paid out by Stripe). */
async function batchCandidates(db: Db, from: number, to: number): Promise<(BatchTransaction & { batchToTime: number | null })[]> {
  const rows = await db
    .select()
    .from(transactions)
    .innerJoin(clubs, eq(clubs.id, transactions.clubId))
    .where(and(eq(clubs.isMerchant, true), isNull(transactions.batchToTime), or(eq(transactions.provider, "stripe"), eq(transactions.provider, "system"))));
  return rows
    .map(({ transactions: t }) => ({
      id: t.id,
      type: t.type as TransactionType,
      amount: t.amount,
      completionTime: t.completionTime,
      isVoid: t.isVoid,
      parentTransaction: t.parentTransaction,
      clubId: t.clubId,
      provider: t.provider,
      batchToTime: t.batchToTime,
    }))
    .filter((t) => t.completionTime !== null && t.completionTime >= from && t.completionTime < to);
}

export async function previewBatch(db: Db, from: number, to: number): Promise<BatchPreviewLine[]> {
  const lines = remittanceBatch(await batchCandidates(db, from, to), from, to);
  if (lines.length === 0) return [];
  const named = await db
    .select({ id: clubs.id, name: clubs.name, account: bankAccounts.displayName })
    .from(clubs)
    .leftJoin(bankAccounts, eq(bankAccounts.id, clubs.bankaccountId))
    .where(
      inArray(
        clubs.id,
        lines.map((l) => l.clubId),
      ),
    );
  return lines.map((line) => {
    const club = named.find((c) => c.id === line.clubId);
    return { ...line, clubName: club?.name ?? line.clubId, bankAccount: club?.account ?? null };
  });
}

/**
 * Writes the batch: a completed remittance to each club owed something and holding an approved bank
 * account, and the batch window stamped on every transaction it took, in one D1 batch. A club owed
 * nothing or without an account keeps its transactions for the next batch.
 */
export async function commitBatch(
  db: Db,
  from: number,
  to: number,
  userId: string,
  now: number,
): Promise<{ ok: true; remitted: number; clubs: number } | { ok: false; error: string }> {
  if (to <= from) return { ok: false, error: PAYOUT_MESSAGES.badWindow };
  const lines = (await previewBatch(db, from, to)).filter((line) => line.owed > 0 && line.bankAccount !== null);
  if (lines.length === 0) return { ok: false, error: PAYOUT_MESSAGES.emptyBatch };
  const statements: Statement[] = [];
  for (const line of lines) {
    statements.push(
      db.insert(transactions).values({
        id: `remit-${line.clubId}-${from}-${to}`,
        createdAt: now,
        type: "remittance",
        amount: line.owed,
        payer: SYSTEM_PAYEE,
        payee: line.clubId,
        batchFromTime: from,
        batchToTime: to,
        completionTime: now,
        clubId: line.clubId,
        provider: "system",
        createdBy: userId,
      }),
    );
    for (let i = 0; i < line.transactionIds.length; i += 90) {
      statements.push(
        db
          .update(transactions)
          .set({ batchFromTime: from, batchToTime: to })
          .where(and(inArray(transactions.id, line.transactionIds.slice(i, i + 90)), isNull(transactions.batchToTime))),
      );
    }
  }
  try {
    await db.batch(statements as [Statement, ...Statement[]]);
  } catch (error) {
    // The same window committed twice (a double click): the remittance ids collide and nothing is written.
    if (uniqueConstraintOf(error) !== null) return { ok: false, error: PAYOUT_MESSAGES.emptyBatch };
    throw error;
  }
  return { ok: true, remitted: lines.reduce((sum, l) => sum + l.owed, 0), clubs: lines.length };
}

/** A club's payouts, newest first. */
export async function payoutsOf(db: Db, clubIds: readonly string[]) {
  if (clubIds.length === 0) return [];
  return db
    .select()
    .from(transactions)
    .where(and(eq(transactions.type, "remittance"), inArray(transactions.clubId, [...clubIds])))
    .orderBy(desc(transactions.createdAt))
    .limit(100);
}
