/** A cart's price, line by line: what a registrant reviews before paying. */
import { formatMoneyIn } from "../../core/registration/receipt-lines";
import type { Lang } from "../../core/forms/bilingual";
import type { FormCartPricing } from "../../core/registration/price-form";
import { FLOW_WORDS } from "./registration-words";

export type PriceSummary = Pick<FormCartPricing, "subtotal" | "discount" | "tax" | "donations" | "systemFee" | "total" | "appliedDiscounts">;

/** `gstRate` null leaves the rate out of the tax line (the live price, where it is said elsewhere). */
export function PriceTable({ price, gstRate, lang = "en", live = false }: { price: PriceSummary; gstRate: number | null; lang?: Lang; live?: boolean }) {
  const words = FLOW_WORDS[lang];
  const rows: [string, number, string][] = [[words.price.subtotal, price.subtotal, "subtotal"]];
  for (const d of price.appliedDiscounts) rows.push([words.price.discount(d.code), -d.amount, `discount-${d.code}`]);
  if (price.tax > 0) rows.push([words.price.tax(gstRate), price.tax, "tax"]);
  if (price.donations > 0) rows.push([words.price.donations, price.donations, "donations"]);
  if (price.systemFee > 0) rows.push([words.price.fee, price.systemFee, "fee"]);
  return (
    <table className="data-table price-table" aria-live={live ? "polite" : undefined}>
      <tbody>
        {rows.map(([label, cents, id]) => (
          <tr key={id} data-testid={`price-${id}`}>
            <th scope="row">{label}</th>
            <td className="money">{formatMoneyIn(cents, lang)}</td>
          </tr>
        ))}
        <tr className="price-total" data-testid="price-total">
          <th scope="row">{words.total}</th>
          <td className="money">{formatMoneyIn(price.total, lang)}</td>
        </tr>
      </tbody>
    </table>
  );
}
