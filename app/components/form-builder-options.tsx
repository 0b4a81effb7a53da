/**
 * The options of an option, multi-option or membership field: one row each (display, value, limit, three
 * prices in dollars, ages and genders it is offered to, fee, hidden, and the member class for memberships). "Add option" and "Remove" post the
 * whole editor, which comes back with the row added or gone and nothing saved; ids stay as they were.
 */
import type { OptionDraft } from "./form-builder-choices";
import { choicesOf, MEMBER_CLASS_LABELS } from "./form-builder-choices";
import { CellCheck, CellInput, CellSelect, ListError } from "./form-builder-cells";

export function OptionsEditor(props: {
  options: readonly OptionDraft[];
  errors: Record<string, string>;
  bilingual: boolean;
  memberClass: boolean;
  focusLast: boolean;
}) {
  const { options, errors } = props;
  const memberChoices = [{ value: "", label: "Not set" }, ...choicesOf(MEMBER_CLASS_LABELS)];
  return (
    <fieldset className="setup-group">
      <legend>Options</legend>
      <p className="hint">
        Prices are in dollars and are added to the field's own price. Leave a tier empty to keep the tier before it; the limit empty for no limit. Ages are
        counted on the form's age date; with no gender ticked, everyone may choose the option.
      </p>
      <ListError error={errors.options_list} />
      {options.length === 0 ? (
        <p className="empty-state">No options yet. Add the first one.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table option-table">
            <thead>
              <tr>
                <th scope="col">Shown as</th>
                {props.bilingual ? <th scope="col">In French</th> : null}
                <th scope="col">Value</th>
                <th scope="col">Limit</th>
                <th scope="col">Price 1</th>
                <th scope="col">Price 2</th>
                <th scope="col">Price 3</th>
                {props.memberClass ? <th scope="col">Member class</th> : null}
                <th scope="col">Ages</th>
                <th scope="col">Only for</th>
                <th scope="col">Fee</th>
                <th scope="col">Hidden</th>
                <th scope="col">
                  <span className="visually-hidden">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {options.map((option, i) => {
                const p = `options_list.${i}.`;
                const n = `Option ${i + 1}`;
                const e = (field: string) => errors[`${p}${field}`];
                return (
                  <tr key={option.id}>
                    <td>
                      <input type="hidden" name={`${p}id`} value={option.id} />
                      <CellInput
                        name={`${p}display`}
                        label={`${n}: shown as`}
                        defaultValue={option.display}
                        error={e("display") ?? e("id")}
                        maxLength={2000}
                        autoFocus={props.focusLast && i === options.length - 1}
                      />
                    </td>
                    {props.bilingual ? (
                      <td>
                        <CellInput
                          name={`${p}display_fr`}
                          label={`${n}: in French`}
                          defaultValue={option.display_fr}
                          error={e("display_fr")}
                          maxLength={2000}
                        />
                      </td>
                    ) : null}
                    <td>
                      <CellInput name={`${p}value`} label={`${n}: value`} defaultValue={option.value} error={e("value")} maxLength={2000} size={8} />
                    </td>
                    <td>
                      <CellInput name={`${p}limit`} label={`${n}: limit`} defaultValue={option.limit} error={e("limit")} inputMode="numeric" size={5} />
                    </td>
                    {(["price_1", "price_2", "price_3"] as const).map((price, t) => (
                      <td key={price}>
                        <CellInput
                          name={`${p}${price}`}
                          label={`${n}: price ${t + 1} in dollars`}
                          defaultValue={option[price]}
                          error={e(price)}
                          inputMode="decimal"
                          size={7}
                        />
                      </td>
                    ))}
                    {props.memberClass ? (
                      <td>
                        <CellSelect
                          name={`${p}member_class`}
                          label={`${n}: member class`}
                          defaultValue={option.member_class}
                          choices={memberChoices}
                          error={e("member_class")}
                        />
                      </td>
                    ) : null}
                    <td className="age-range">
                      <CellInput
                        name={`${p}min_age`}
                        label={`${n}: youngest age`}
                        defaultValue={option.min_age}
                        error={e("min_age")}
                        inputMode="numeric"
                        size={3}
                      />
                      <CellInput
                        name={`${p}max_age`}
                        label={`${n}: oldest age`}
                        defaultValue={option.max_age}
                        error={e("max_age")}
                        inputMode="numeric"
                        size={3}
                      />
                    </td>
                    <td className="gender-flags">
                      <CellCheck name={`${p}is_female`} label={`${n}: offered to women`} defaultChecked={option.is_female} />
                      <CellCheck name={`${p}is_male`} label={`${n}: offered to men`} defaultChecked={option.is_male} />
                      <CellCheck name={`${p}is_other`} label={`${n}: offered to other genders`} defaultChecked={option.is_other} />
                    </td>
                    <td>
                      <CellCheck name={`${p}is_fee`} label={`${n}: a fee (not discounted by codes)`} defaultChecked={option.is_fee} />
                    </td>
                    <td>
                      <CellCheck
                        name={`${p}is_hidden`}
                        label={`${n}: hidden from registrants (admins can still choose it)`}
                        defaultChecked={option.is_hidden}
                      />
                    </td>
                    <td>
                      <button
                        type="submit"
                        name="intent"
                        value={`remove-option:${i}`}
                        className="small secondary"
                        aria-label={`Remove option ${i + 1}${option.display ? ` (${option.display})` : ""}`}
                      >
                        Remove
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <button type="submit" name="intent" value="add-option" className="small secondary">
        Add option
      </button>
    </fieldset>
  );
}
