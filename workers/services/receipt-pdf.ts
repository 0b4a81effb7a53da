/**
 * The receipt as a PDF (issue 24): the same itemised lines and money as the receipt page and mail, in the
 * registrant's language, laid out by the print module the results use (A4, page numbers).
 */
import { labelIn } from "../../core/forms/bilingual";
import { tablePdf } from "../../core/print/table-pdf";
import { deflatePdf } from "./pdf-deflate";
import type { PrintSection } from "../../core/print/print-table";
import { capitalised } from "../../core/registration/people-labels";
import { formatDateIn, formatMoneyIn, RECEIPT_WORDS } from "../../core/registration/receipt-lines";
import type { ReceiptView } from "./receipts";

export function receiptPdf(receipt: ReceiptView, form: { name: string; clubName: string }): Uint8Array<ArrayBuffer> {
  const words = RECEIPT_WORDS[receipt.lang];
  const money = (cents: number | null) => (cents === null ? "" : formatMoneyIn(cents, receipt.lang));
  const rows: string[][] = [];
  for (const person of receipt.people) {
    rows.push([`${person.name}${person.cancelled ? ` (${words.cancelledPerson})` : ""}`, money(person.total)]);
    for (const line of person.lines) rows.push([`    ${line.label}`, money(line.amount)]);
  }
  for (const line of receipt.cartLines) rows.push([line.label, money(line.amount)]);
  rows.push([words.total, money(receipt.total)], [words.paid, money(receipt.received)]);
  if (receipt.refunded > 0) rows.push([words.refunded, money(receipt.refunded)], [words.netPaid, money(receipt.netPaid)]);
  if (receipt.pending > 0) rows.push([words.toPay, money(receipt.pending)]);
  const sections: PrintSection[] = [
    {
      heading: receipt.pending === 0 ? words.complete : words.due,
      columns: [{ label: capitalised(receipt.peopleLabels.singular) }, { label: words.amount, numeric: true }],
      rows,
    },
  ];
  const payments = receipt.transactions.filter((t) => !t.isVoid);
  if (payments.length > 0)
    sections.push({
      heading: words.payments,
      columns: [{ label: words.payments }],
      rows: payments.map((t) => [
        words.transaction(
          t.type === "refund" ? words.refund : words.payment,
          t.completed ? (words.methods[t.method ?? ""] ?? words.methods.other!) : words.cashOrCheque,
          money(t.amount),
          t.completed ? formatDateIn(t.at, receipt.lang) : null,
        ),
      ]),
    });
  return tablePdf({
    deflate: deflatePdf,
    header: {
      title: labelIn(form.name, receipt.lang),
      details: [form.clubName, words.cartLine(receipt.number, null), receipt.completedAt ? formatDateIn(receipt.completedAt, receipt.lang) : ""],
      documentName: words.subjects.paid,
    },
    sections,
    fontSize: 10,
    empty: words.due,
  });
}
