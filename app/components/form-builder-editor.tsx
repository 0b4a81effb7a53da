/**
 * The element editor: the settings every field has, then its type's own (options, discount codes, …).
 * One POST sends the whole element; "Add option", "Remove" and the like send it too and come back with
 * the rows changed but nothing saved, so the editor works the same with or without JavaScript.
 */
import { Form, Link, useNavigation } from "@remix-run/react";
import { FormMessage } from "./auth-card";
import type { EditorSections, ElementDraft } from "./form-builder-choices";
import { choicesOf, OPERATOR_LABELS } from "./form-builder-choices";
import { DiscountsEditor } from "./form-builder-discounts";
import { OptionsEditor } from "./form-builder-options";
import { TypeSettings } from "./form-builder-type-settings";
import type { Choice } from "./form-kit";
import { CheckboxField, SelectField, TextField } from "./form-kit";

export interface EditorProps {
  draft: ElementDraft;
  errors: Record<string, string>;
  sections: EditorSections;
  type: string;
  typeLabel: string;
  bilingual: boolean;
  /** The other fields of the form, for the condition. */
  others: readonly Choice[];
  /** The priced fields, for what a discount applies to. */
  priced: readonly Choice[];
  /** The list whose new row takes the focus, after "Add option" or "Add a code". */
  focus: "option" | "discount" | null;
  backTo: string;
  /** The club's validation systems (and the one the field names), for a text or number field. */
  validationSystems: readonly Choice[];
  /** The club's divisions (and the one the panel names), for a membership panel. */
  divisions: readonly Choice[];
  /** The latest change to the field when the editor opened: a save refused if someone changed it since. */
  openedAt: number;
}

export function ElementEditor(props: EditorProps) {
  const { draft, errors, sections: s } = props;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const fieldErrors = Object.keys(errors).filter((k) => k !== "form").length;
  return (
    <Form method="post" className="setup-form element-editor">
      <input type="hidden" name="opened_at" value={props.openedAt} />
      {/* Enter in a text box presses the form's first submit button: make that Save, not a row's Remove. */}
      <button type="submit" name="intent" value="save" className="visually-hidden" tabIndex={-1} aria-hidden="true">
        Save
      </button>
      {errors.form ? <FormMessage error={errors.form} /> : null}
      {fieldErrors > 0 ? <FormMessage error="Please correct the fields marked below." /> : null}
      <CaptionFields draft={draft} errors={errors} bilingual={props.bilingual} />
      <TextField
        name="title"
        label="Title"
        hint="A longer explanation shown with the field."
        maxLength={2000}
        defaultValue={draft.title}
        error={errors.title}
      />
      {s.input ? (
        <TextField
          name="column_header"
          label="Column header"
          hint="The field's name in reports and exports."
          maxLength={2000}
          defaultValue={draft.column_header}
          error={errors.column_header}
        />
      ) : null}
      {s.input ? (
        <TextField
          name="logic_key"
          label="Key"
          hint="Optional. A name that stays the same when the caption changes, for exports and apps using the data API, such as bib or club. The keys first_name and last_name name people in carts and reports."
          maxLength={64}
          defaultValue={draft.logic_key}
          error={errors.logic_key}
        />
      ) : null}
      {s.pricing ? <PricingFields draft={draft} errors={errors} /> : null}
      <fieldset className="setup-group">
        <legend>Who sees it</legend>
        {s.input ? <CheckboxField name="is_mandatory" label="Mandatory" defaultChecked={draft.is_mandatory} /> : null}
        {s.input ? (
          <CheckboxField name="is_admin_mandatory" label="Mandatory when an administrator fills the form in" defaultChecked={draft.is_admin_mandatory} />
        ) : null}
        <CheckboxField name="is_admin_only" label="Administrators only" hint="Hidden from registrants." defaultChecked={draft.is_admin_only} />
        <CheckboxField name="is_kiosk_mode" label="Kiosk only" hint="Shown only on the club's on-site sign-up screen." defaultChecked={draft.is_kiosk_mode} />
        {s.input ? <CheckboxField name="is_edit_forbidden" label="Registrants cannot change it once saved" defaultChecked={draft.is_edit_forbidden} /> : null}
      </fieldset>
      <ConditionFields draft={draft} errors={errors} others={props.others} />
      {s.options ? (
        <OptionsEditor options={draft.options} errors={errors} bilingual={props.bilingual} memberClass={s.memberClass} focusLast={props.focus === "option"} />
      ) : null}
      {s.discounts ? (
        <DiscountsEditor
          discounts={draft.discounts}
          errors={errors}
          priced={props.priced}
          allDiscount={draft.all_discount}
          focusLast={props.focus === "discount"}
        />
      ) : null}
      <TypeSettings
        draft={draft}
        sections={s}
        errors={errors}
        typeLabel={props.typeLabel}
        isBanner={props.type === "banner"}
        validationSystems={props.validationSystems}
        divisions={props.divisions}
      />
      <div className="actions">
        <button type="submit" name="intent" value="save" disabled={busy}>
          {busy ? "Saving…" : "Save field"}
        </button>
        <Link to={props.backTo} className="button secondary">
          Back to the fields
        </Link>
      </div>
    </Form>
  );
}

function CaptionFields({ draft, errors, bilingual }: { draft: ElementDraft; errors: Record<string, string>; bilingual: boolean }) {
  if (!bilingual)
    return <TextField name="caption" label="Caption" hint="What registrants see." maxLength={2000} defaultValue={draft.caption} error={errors.caption} />;
  return (
    <>
      <TextField name="caption" label="Caption in English" maxLength={1000} defaultValue={draft.caption} error={errors.caption} />
      <TextField
        name="caption_fr"
        label="Caption in French"
        hint="Leave empty to show the English caption in French too."
        maxLength={1000}
        defaultValue={draft.caption_fr}
        error={errors.caption_fr}
      />
    </>
  );
}

function PricingFields({ draft, errors }: { draft: ElementDraft; errors: Record<string, string> }) {
  return (
    <fieldset className="setup-group">
      <legend>Price</legend>
      <p className="hint">In dollars, like 25.00. Tier 2 and 3 apply from the price rises set in Settings; leave a tier empty to keep the one before.</p>
      <div className="price-row">
        <TextField name="price_1" label="Price 1" inputMode="decimal" placeholder="0.00" defaultValue={draft.price_1} error={errors.price_1} />
        <TextField name="price_2" label="Price 2" inputMode="decimal" placeholder="0.00" defaultValue={draft.price_2} error={errors.price_2} />
        <TextField name="price_3" label="Price 3" inputMode="decimal" placeholder="0.00" defaultValue={draft.price_3} error={errors.price_3} />
      </div>
      <CheckboxField name="is_taxable" label="Taxable" hint="The form's GST rate is added." defaultChecked={draft.is_taxable} />
      <CheckboxField name="is_fee" label="A fee" hint="Charged as a fee rather than as a registration item." defaultChecked={draft.is_fee} />
      <TextField
        name="quantity_limit"
        label="Quantity limit"
        inputMode="numeric"
        hint="How many can be sold in all; empty for no limit."
        defaultValue={draft.quantity_limit}
        error={errors.quantity_limit}
      />
    </fieldset>
  );
}

function ConditionFields({ draft, errors, others }: { draft: ElementDraft; errors: Record<string, string>; others: readonly Choice[] }) {
  return (
    <fieldset className="setup-group">
      <legend>Condition</legend>
      <p className="hint">Show this field only when another field's answer matches. Choose “Always shown” for no condition.</p>
      <SelectField
        name="condition.element"
        label="Depends on"
        defaultValue={draft.condition_element}
        error={errors["condition.element"]}
        choices={[{ value: "", label: "Always shown" }, ...others]}
      />
      <SelectField
        name="condition.operator"
        label="When its answer"
        defaultValue={draft.condition_operator}
        error={errors["condition.operator"]}
        choices={choicesOf(OPERATOR_LABELS)}
      />
      <TextField
        name="condition.value"
        label="Value"
        hint="Not needed for “is empty”, “is filled in”, “is signed” and “is not signed”."
        maxLength={2000}
        defaultValue={draft.condition_value}
        error={errors["condition.value"]}
      />
    </fieldset>
  );
}
