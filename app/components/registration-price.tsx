/** A cart's price, line by line: what a registrant reviews before paying. */
import { formatMoneyWithSymbol } from "../../core/money/money";
import type { FormCartPricing } from "../../core/registration/price-form";

export type PriceSummary = Pick<FormCartPricing, "subtotal" | "discount" | "tax" | "donations" | "systemFee" | "total" | "appliedDiscounts">;

export function PriceTable({ price, taxLabel, live = false }: { price: PriceSummary; taxLabel: string; live?: boolean }) {
  const rows: [string, number, string][] = [["Subtotal", price.subtotal, "subtotal"]];
  for (const d of price.appliedDiscounts) rows.push([`Discount ${d.code}`, -d.amount, `discount-${d.code}`]);
  if (price.tax > 0) rows.push([taxLabel, price.tax, "tax"]);
  if (price.donations > 0) rows.push(["Donations", price.donations, "donations"]);
  if (price.systemFee > 0) rows.push(["Processing fee", price.systemFee, "fee"]);
  return (
    <table className="data-table price-table" aria-live={live ? "polite" : undefined}>
      <tbody>
        {rows.map(([label, cents, id]) => (
          <tr key={id} data-testid={`price-${id}`}>
            <th scope="row">{label}</th>
            <td className="money">{formatMoneyWithSymbol(cents)}</td>
          </tr>
        ))}
        <tr className="price-total" data-testid="price-total">
          <th scope="row">Total</th>
          <td className="money">{formatMoneyWithSymbol(price.total)}</td>
        </tr>
      </tbody>
    </table>
  );
}
