/**
 * The codes of a discount field: one group per code (code, kind, amount — a percentage or dollars —, the
 * priced fields it applies to, description, how many uses). Adding and removing post the whole editor.
 */
import type { Choice } from "./form-kit";
import { CheckboxField } from "./form-kit";
import type { DiscountDraft } from "./form-builder-choices";
import { choicesOf, DISCOUNT_TYPE_LABELS } from "./form-builder-choices";
import { CellInput, CellSelect, ListError } from "./form-builder-cells";

export function DiscountsEditor(props: {
  discounts: readonly DiscountDraft[];
  errors: Record<string, string>;
  priced: readonly Choice[];
  allDiscount: boolean;
  focusLast: boolean;
}) {
  const { discounts, errors } = props;
  return (
    <fieldset className="setup-group">
      <legend>Discount codes</legend>
      <p className="hint">Registrants type codes into this field; each code takes its amount off the fields it applies to.</p>
      <ListError error={errors["config.discounts_list"]} />
      <CheckboxField name="all_discount" label="Apply once to the whole cart (otherwise once per person)" defaultChecked={props.allDiscount} />
      {discounts.length === 0 ? <p className="empty-state">No codes yet. Add the first one.</p> : null}
      {discounts.map((discount, i) => {
        const p = `config.discounts_list.${i}.`;
        const n = `Code ${i + 1}`;
        const e = (field: string) => errors[`${p}${field}`];
        return (
          <fieldset key={i} className="discount-entry">
            <legend>{discount.code ? `${n}: ${discount.code}` : n}</legend>
            <div className="discount-grid">
              <CellInput
                visibleLabel="Code"
                name={`${p}code`}
                label={`${n}: code`}
                defaultValue={discount.code}
                error={e("code")}
                maxLength={64}
                autoFocus={props.focusLast && i === discounts.length - 1}
              />
              <CellSelect
                visibleLabel="Kind"
                name={`${p}type`}
                label={`${n}: kind`}
                defaultValue={discount.type}
                choices={choicesOf(DISCOUNT_TYPE_LABELS)}
                error={e("type")}
              />
              <CellInput
                visibleLabel="Amount"
                name={`${p}amt`}
                label={`${n}: amount (a percentage to take off, else dollars)`}
                defaultValue={discount.amt}
                error={e("amt")}
                inputMode="decimal"
                size={8}
              />
              <CellInput
                visibleLabel="Uses"
                name={`${p}qty`}
                label={`${n}: how many times it can be used (empty for no limit)`}
                defaultValue={discount.qty}
                error={e("qty")}
                inputMode="numeric"
                size={6}
              />
              <CellInput
                visibleLabel="Description"
                name={`${p}description`}
                label={`${n}: description`}
                defaultValue={discount.description}
                error={e("description")}
                maxLength={2000}
              />
            </div>
            <p className="hint">Amount: a percentage (0–100) for “Take off a percentage”, else dollars like 10.00. Uses: empty for no limit.</p>
            <fieldset className="choice-group" aria-describedby={e("elts_list") ? `${p}elts_list-error` : undefined}>
              <legend>Applies to</legend>
              {props.priced.length === 0 ? <p className="empty-state">No priced fields on this form yet.</p> : null}
              {props.priced.map((field) => (
                <label key={field.value} className="choice">
                  <input type="checkbox" name={`${p}elts_list`} value={field.value} defaultChecked={discount.elts_list.includes(field.value)} /> {field.label}
                </label>
              ))}
              {e("elts_list") ? (
                <span id={`${p}elts_list-error`} className="form-error">
                  {e("elts_list")}
                </span>
              ) : null}
            </fieldset>
            <button
              type="submit"
              name="intent"
              value={`remove-discount:${i}`}
              className="small secondary"
              aria-label={`Remove code ${i + 1}${discount.code ? ` (${discount.code})` : ""}`}
            >
              Remove this code
            </button>
          </fieldset>
        );
      })}
      <button type="submit" name="intent" value="add-discount" className="small secondary">
        Add a code
      </button>
    </fieldset>
  );
}
