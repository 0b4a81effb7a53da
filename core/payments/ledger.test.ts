import { describe, expect, it } from "vitest";
import { formatMoney } from "../money/money";
import {
  cartBalance,
  counts,
  LEDGER_MESSAGES,
  paymentAttemptKey,
  refundableOf,
  refundProblem,
  refundStatus,
  remittanceBatch,
  voidProblem,
  type BatchTransaction,
  type LedgerTransaction,
} from "./ledger";

const payment: LedgerTransaction = { id: "p1", type: "payment", amount: 6102, completionTime: 1_000, isVoid: false, parentTransaction: null };
const refund = (id: string, amount: number, extra: Partial<LedgerTransaction> = {}): LedgerTransaction => ({
  id,
  type: "refund",
  amount,
  completionTime: 2_000,
  isVoid: false,
  parentTransaction: "p1",
  ...extra,
});

describe("transaction states (section 4)", () => {
  it("counts a transaction once completion_time is set and it is not void", () => {
    expect(counts(payment)).toBe(true);
    expect(counts({ ...payment, completionTime: null })).toBe(false);
    expect(counts({ ...payment, isVoid: true })).toBe(false);
  });

  it("refund status is none, partial, then refunded when the refunded sum equals the amount", () => {
    expect(refundStatus(payment, [payment])).toBe("none");
    expect(refundStatus(payment, [payment, refund("r1", 2000)])).toBe("partial");
    expect(refundStatus(payment, [payment, refund("r1", 2000), refund("r2", 4102)])).toBe("refunded");
  });

  it("a void or pending refund does not count, and neither does another payment's refund", () => {
    const all = [payment, refund("r1", 2000, { isVoid: true }), refund("r2", 1000, { completionTime: null }), refund("r3", 500, { parentTransaction: "p2" })];
    expect(refundStatus(payment, all)).toBe("none");
    expect(refundableOf(payment, all)).toBe(6102);
  });
});

describe("refunds", () => {
  it("allows a partial then the rest, and nothing beyond it", () => {
    expect(refundProblem(payment, [payment], 2000, formatMoney)).toBeNull();
    const after = [payment, refund("r1", 2000)];
    expect(refundableOf(payment, after)).toBe(4102);
    expect(refundProblem(payment, after, 4103, formatMoney)).toBe("The refund cannot be more than the 41.02 left on this payment.");
    expect(refundProblem(payment, after, 4102, formatMoney)).toBeNull();
  });

  it("refuses zero, negative and fractional amounts, and payments that are pending or void", () => {
    expect(refundProblem(payment, [payment], 0, formatMoney)).toBe(LEDGER_MESSAGES.refundPositive);
    expect(refundProblem(payment, [payment], -5, formatMoney)).toBe(LEDGER_MESSAGES.refundPositive);
    expect(refundProblem(payment, [payment], 1.5, formatMoney)).toBe(LEDGER_MESSAGES.refundPositive);
    expect(refundProblem({ ...payment, completionTime: null }, [], 100, formatMoney)).toBe(LEDGER_MESSAGES.notRefundable);
    expect(refundProblem({ ...payment, isVoid: true }, [], 100, formatMoney)).toBe(LEDGER_MESSAGES.notRefundable);
  });
});

describe("void", () => {
  it("voids pending payments and manual ones, not completed card payments or refunded ones", () => {
    expect(voidProblem({ ...payment, completionTime: null, provider: "stripe" }, [])).toBeNull();
    expect(voidProblem({ ...payment, provider: "manual" }, [payment])).toBeNull();
    expect(voidProblem({ ...payment, provider: "stripe" }, [payment])).toBe(LEDGER_MESSAGES.voidCompletedCard);
    expect(voidProblem({ ...payment, provider: "manual" }, [payment, refund("r1", 100)])).toBe(LEDGER_MESSAGES.voidHasRefunds);
    expect(voidProblem({ ...payment, isVoid: true, provider: "manual" }, [])).toBe(LEDGER_MESSAGES.alreadyVoid);
  });
});

describe("cart balance", () => {
  it("is paid less refunds, with pending payments counted against what is due", () => {
    expect(cartBalance(6102, [payment])).toEqual({ paid: 6102, pending: 0, refunded: 0, due: 0 });
    expect(cartBalance(6102, [payment, refund("r1", 2000)])).toEqual({ paid: 4102, pending: 0, refunded: 2000, due: 0 });
    expect(cartBalance(6102, [{ ...payment, completionTime: null }])).toEqual({ paid: 0, pending: 6102, refunded: 0, due: 0 });
    expect(cartBalance(6102, [{ ...payment, isVoid: true }])).toEqual({ paid: 0, pending: 0, refunded: 0, due: 6102 });
  });
});

describe("remittance batch", () => {
  const t = (
    id: string,
    clubId: string,
    type: BatchTransaction["type"],
    amount: number,
    completionTime: number | null,
    extra: Partial<BatchTransaction> = {},
  ): BatchTransaction => ({
    id,
    clubId,
    type,
    amount,
    completionTime,
    isVoid: false,
    parentTransaction: null,
    provider: "stripe",
    ...extra,
  });

  it("sums what each club is owed after fees and refunds, inside [from, to) only", () => {
    const all = [
      t("a1", "club-a", "payment", 10_000, 100),
      t("a2", "club-a", "z4fee", 200, 100, { provider: "system" }),
      t("a3", "club-a", "refund", 2_500, 150),
      t("a4", "club-a", "payment", 7_000, 200), // at `to`: next batch
      t("a5", "club-a", "payment", 9_999, 120, { isVoid: true }),
      t("a6", "club-a", "payment", 5_000, null), // pending
      t("a7", "club-a", "payment", 3_000, 130, { provider: "manual" }), // cash stays with the club
      t("b1", "club-b", "payment", 4_000, 99), // before `from`
      t("b2", "club-b", "payment", 1_500, 110),
      t("b3", "club-b", "division", 300, 110),
    ];
    expect(remittanceBatch(all, 100, 200)).toEqual([
      { clubId: "club-a", payments: 10_000, refunds: 2_500, fees: 200, division: 0, owed: 7_300, transactionIds: ["a1", "a2", "a3"] },
      { clubId: "club-b", payments: 1_500, refunds: 0, fees: 0, division: 300, owed: 1_200, transactionIds: ["b2", "b3"] },
    ]);
  });

  it("leaves out what an earlier batch already took", () => {
    const all = [{ ...t("a1", "club-a", "payment", 10_000, 100), batchToTime: 150 }, t("a2", "club-a", "payment", 1_000, 120)];
    expect(remittanceBatch(all, 0, 200).map((line) => line.owed)).toEqual([1_000]);
  });
});

describe("payment attempt key", () => {
  it("is the same for the same cart state and amount, and changes with either", () => {
    expect(paymentAttemptKey("c1", 5, 6102)).toBe(paymentAttemptKey("c1", 5, 6102));
    expect(paymentAttemptKey("c1", 6, 6102)).not.toBe(paymentAttemptKey("c1", 5, 6102));
    expect(paymentAttemptKey("c1", 5, 6103)).not.toBe(paymentAttemptKey("c1", 5, 6102));
    expect(paymentAttemptKey("c1", 5, 6102).length).toBeLessThanOrEqual(255);
  });
});
