/** The settings only some field types have (core/forms/model.ts ElementConfig), shown for the type being edited. */
import type { EditorSections, ElementDraft } from "./form-builder-choices";
import { choicesOf, IMAGE_LOGIC_LABELS, LICENCE_LABELS, MEMBER_CLASS_LABELS } from "./form-builder-choices";
import { CheckboxField, RadioField, SelectField, TextAreaField, TextField, type Choice } from "./form-kit";

export function TypeSettings({
  draft,
  sections: s,
  errors,
  typeLabel,
  isBanner,
  validationSystems,
  divisions,
}: {
  draft: ElementDraft;
  sections: EditorSections;
  errors: Record<string, string>;
  typeLabel: string;
  isBanner: boolean;
  /** The club's validation systems, for a text or number field. */
  validationSystems: readonly Choice[];
  /** The club's divisions, for a membership panel. */
  divisions: readonly Choice[];
}) {
  const any =
    s.memberClass ||
    s.displayType ||
    s.optin ||
    s.unspecified ||
    s.minFee ||
    s.waiver ||
    s.licence ||
    s.image ||
    s.membership ||
    s.number ||
    s.text ||
    s.validation;
  if (!any) return null;
  return (
    <fieldset className="setup-group">
      <legend>{typeLabel} settings</legend>
      {s.displayType ? (
        <RadioField
          name="display_type"
          legend="Show the options as"
          choices={[
            { value: "radio", label: "Radio buttons" },
            { value: "select", label: "A drop-down list" },
          ]}
          defaultValue={draft.display_type}
          error={errors.display_type}
        />
      ) : null}
      {s.optin ? (
        <CheckboxField
          name="config.is_disable_optin"
          label="Do not offer the opt-in to promotional emails"
          hint="The opt-in is offered, and ticked, unless this is set."
          defaultChecked={draft.is_disable_optin}
        />
      ) : null}
      {s.unspecified ? (
        <CheckboxField name="config.is_show_unspecified" label="Show the full words Female, Male and Other" defaultChecked={draft.is_show_unspecified} />
      ) : null}
      {s.minFee ? (
        <TextField
          name="config.min_fee"
          label="Minimum donation (dollars)"
          inputMode="decimal"
          placeholder="0.00"
          defaultValue={draft.min_fee}
          error={errors["config.min_fee"]}
        />
      ) : null}
      {s.waiver ? (
        <>
          <TextAreaField
            name="config.waiver_text"
            label="Waiver text"
            rows={8}
            maxLength={50_000}
            defaultValue={draft.waiver_text}
            error={errors["config.waiver_text"]}
          />
          <CheckboxField
            name="config.is_insidetrack"
            label="InsideTrack waiver"
            hint="For the one organisation that uses it."
            defaultChecked={draft.is_insidetrack}
          />
        </>
      ) : null}
      {s.licence ? (
        <SelectField
          name="config.licence_kind"
          label="Licence kind"
          defaultValue={draft.licence_kind || "ccc"}
          choices={choicesOf(LICENCE_LABELS)}
          error={errors["config.licence_kind"]}
        />
      ) : null}
      {s.image ? (
        <SelectField
          name="config.logic"
          label="What the image is"
          defaultValue={draft.logic || "headshot"}
          choices={choicesOf(IMAGE_LOGIC_LABELS)}
          error={errors["config.logic"]}
        />
      ) : null}
      {s.membership ? (
        <>
          <SelectField
            name="config.division_id"
            label="Division"
            hint="The division whose members this panel records; with none chosen, the club's first division."
            defaultValue={draft.division_id}
            choices={[{ value: "", label: "The club's first division" }, ...divisions]}
            error={errors["config.division_id"]}
          />
          <SelectField
            name="member_class"
            label="Member class"
            hint="For options that do not set their own."
            choices={[{ value: "", label: "General (the default)" }, ...choicesOf(MEMBER_CLASS_LABELS)]}
            defaultValue={draft.member_class}
            error={errors.member_class}
          />
          <CheckboxField name="config.is_fees_extra" label="Membership fees are charged on top of the cart" defaultChecked={draft.is_fees_extra} />
          <TextField
            name="config.family_cap"
            label="Family cap (dollars)"
            inputMode="decimal"
            hint="The most one cart pays for memberships; empty for no cap."
            defaultValue={draft.family_cap}
            error={errors["config.family_cap"]}
          />
        </>
      ) : null}
      {s.number ? (
        <>
          <TextField
            name="config.min"
            label="Smallest value"
            inputMode="decimal"
            hint="Empty for no minimum."
            defaultValue={draft.min}
            error={errors["config.min"]}
          />
          <TextField
            name="config.max"
            label="Largest value"
            inputMode="decimal"
            hint="Empty for no maximum."
            defaultValue={draft.max}
            error={errors["config.max"]}
          />
        </>
      ) : null}
      {s.validation ? (
        <SelectField
          name="config.validation_system_id"
          label="Validation system"
          hint="A membership or licence number field can be checked against one of the club's lists or patterns."
          defaultValue={draft.validation_system_id}
          choices={[{ value: "", label: "None" }, ...validationSystems]}
          error={errors["config.validation_system_id"]}
        />
      ) : null}
      {s.text && isBanner ? (
        <TextField name="config.text" label="Image address (URL)" placeholder="https://…" defaultValue={draft.text} error={errors["config.text"]} />
      ) : null}
      {s.text && !isBanner ? (
        <TextAreaField name="config.text" label="Text" rows={6} maxLength={50_000} defaultValue={draft.text} error={errors["config.text"]} />
      ) : null}
    </fieldset>
  );
}
