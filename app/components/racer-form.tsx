/** The racer form of /race/:id/admin/racers/:racerId: every field labelled, errors tied to their input. */
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import type { CustomField, FieldErrors } from "../racers.server";
import { boxStyle, choiceStyle, Field, groupStyle } from "./form-kit";

interface Choice {
  id: string;
  name: string;
}

export interface RacerFormProps {
  action: string;
  values: Record<string, string>;
  errors: FieldErrors;
  courses: Choice[];
  startGroups: Choice[];
  /** A free-order race's meta start groups; the field is left out when there are none. */
  metaStartGroups: Choice[];
  fields: CustomField[];
  submitLabel: string;
  pending: boolean;
  /** A new racer's one-time id: "Add racer" sent twice (a double click) adds them once. */
  submission?: string;
}

const inputId = (name: string) => name.replace(/[^\w-]/g, "-");

/** A text input with its label, hint and error. */
function TextField(props: {
  name: string;
  label: string;
  values: Record<string, string>;
  errors: FieldErrors;
  hint?: string;
  inputMode?: "numeric" | "decimal" | "text";
  placeholder?: string;
  autoComplete?: string;
}) {
  const id = inputId(props.name);
  const error = props.errors[props.name];
  return (
    <Field id={id} label={props.label} hint={props.hint} error={error}>
      {(describedBy) => (
        <input
          id={id}
          name={props.name}
          defaultValue={props.values[props.name] ?? ""}
          inputMode={props.inputMode}
          placeholder={props.placeholder}
          autoComplete={props.autoComplete ?? "off"}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      )}
    </Field>
  );
}

function SelectField(props: {
  name: string;
  label: string;
  values: Record<string, string>;
  errors: FieldErrors;
  options: Choice[];
  blank: string;
  hint?: string;
}) {
  const id = inputId(props.name);
  const error = props.errors[props.name];
  return (
    <Field id={id} label={props.label} hint={props.hint} error={error}>
      {(describedBy) => (
        <select
          id={id}
          name={props.name}
          defaultValue={props.values[props.name] ?? ""}
          style={boxStyle}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        >
          <option value="">{props.blank}</option>
          {props.options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A checkbox with its label and error; ticked posts "on", unticked posts nothing (read as no). */
function CheckboxField(props: { name: string; label: string; values: Record<string, string>; errors: FieldErrors }) {
  const id = inputId(props.name);
  const error = props.errors[props.name];
  return (
    <div className="field">
      <label style={choiceStyle}>
        <input
          type="checkbox"
          id={id}
          name={props.name}
          defaultChecked={Boolean(props.values[props.name])}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />{" "}
        {props.label}
      </label>
      {error ? (
        <span id={`${id}-error`} className="form-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}

function CustomFieldInput({ field, values, errors }: { field: CustomField; values: Record<string, string>; errors: FieldErrors }) {
  const name = `custom.${field.key}`;
  if (field.type === "boolean" || field.type === "checkbox" || field.type === "category")
    return <CheckboxField name={name} label={field.display} values={values} errors={errors} />;
  if (field.type === "option" || field.type === "gender") {
    const options = field.type === "gender" ? ["M", "F"] : (field.options ?? []);
    return <SelectField name={name} label={field.display} values={values} errors={errors} options={options.map((o) => ({ id: o, name: o }))} blank="—" />;
  }
  const hints: Partial<Record<CustomField["type"], string>> = {
    time: "H:MM:SS, M:SS or seconds",
    seconds: "Seconds, with up to 6 decimals",
    date: "YYYY-MM-DD",
    number: "A number",
    bib: "A whole number",
  };
  const numeric = field.type === "number" || field.type === "bib" || field.type === "seconds";
  return <TextField name={name} label={field.display} values={values} errors={errors} hint={hints[field.type]} inputMode={numeric ? "decimal" : undefined} />;
}

function Group({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset style={groupStyle}>
      <legend style={{ fontWeight: 600 }}>{legend}</legend>
      {children}
    </fieldset>
  );
}

const STATUS_LABELS = { ok: "OK (no status)", dns: "DNS: did not start", dnf: "DNF: did not finish", dsq: "DSQ: disqualified" } as const;

export function RacerForm(props: RacerFormProps) {
  const { values, errors } = props;
  const common = { values, errors };
  const statusError = errors.status_time;
  return (
    <Form method="post" action={props.action} className="stack" noValidate>
      <input type="hidden" name="intent" value="save" />
      {props.submission ? <input type="hidden" name="submission" value={props.submission} /> : null}
      <Group legend="Racer">
        <TextField name="first_name" label="First name" {...common} />
        <TextField name="last_name" label="Last name" {...common} />
        <TextField name="bib" label="Bib" inputMode="numeric" {...common} />
        <TextField name="chip" label="Chip" {...common} />
        <TextField name="chip_list" label="More chips" hint="Comma separated" {...common} />
        <SelectField
          name="sex"
          label="Sex"
          options={[
            { id: "M", name: "M" },
            { id: "F", name: "F" },
          ]}
          blank="—"
          {...common}
        />
        <TextField name="club" label="Club" {...common} />
        <TextField name="team" label="Team" {...common} />
        <TextField name="city" label="City" {...common} />
        <TextField name="category" label="Category" {...common} />
      </Group>
      <Group legend="Start">
        <SelectField name="course" label="Course" options={props.courses} blank="No course" {...common} />
        <SelectField name="setupgroup_id" label="Start group" options={props.startGroups} blank="No start group" {...common} />
        {props.metaStartGroups.length > 0 ? (
          <SelectField name="metastart_id" label="Meta start group" options={props.metaStartGroups} blank="No meta start group" {...common} />
        ) : null}
        <TextField name="scheduled_start_time" label="Scheduled start" hint="Time of day, HH:MM:SS" placeholder="10:00:00" {...common} />
      </Group>
      <Group legend="Seeding">
        <TextField name="ccc_licence" label="CCC licence" {...common} />
        <TextField name="licence" label="Licence" hint="Used when there is no CCC licence" {...common} />
        <TextField name="cpl_distance_pts" label="CPL distance points" hint="A number; blank is none" inputMode="decimal" {...common} />
        <TextField name="cpl_sprint_pts" label="CPL sprint points" hint="A number; blank is none" inputMode="decimal" {...common} />
        <TextField name="seed" label="Seed" hint="Set by seeding on the Start order page; blank is none" inputMode="decimal" {...common} />
        <CheckboxField name="is_manual_seed" label="Manual seed (seeding does not recalculate it)" {...common} />
      </Group>
      <Group legend="Time adjustments">
        <TextField name="penalty" label="Penalty (seconds)" hint="Added to the time; decimals allowed" inputMode="decimal" {...common} />
        <TextField name="bonus" label="Bonus (seconds)" hint="Taken off the time; decimals allowed" inputMode="decimal" {...common} />
        <TextField name="add_back" label="Add back (seconds)" hint="Time given back; decimals allowed" inputMode="decimal" {...common} />
        <TextField name="para_factor" label="Para factor (percent)" hint="Percent of the time that counts; blank is 100" inputMode="decimal" {...common} />
      </Group>
      {props.fields.length > 0 ? (
        <Group legend="More fields">
          {props.fields.map((field) => (
            <CustomFieldInput key={field.key} field={field} {...common} />
          ))}
        </Group>
      ) : null}
      <fieldset style={groupStyle} aria-describedby={statusError ? "status_time-error" : "status-hint"}>
        <legend style={{ fontWeight: 600 }}>Status</legend>
        <span id="status-hint" className="hint">
          Setting one of DNS, DNF or DSQ clears the other two; OK clears all three.
        </span>
        {(Object.keys(STATUS_LABELS) as (keyof typeof STATUS_LABELS)[]).map((status) => (
          <label key={status} style={choiceStyle}>
            <input type="radio" name="status" value={status} defaultChecked={(values.status ?? "ok") === status} /> {STATUS_LABELS[status]}
          </label>
        ))}
        <TextField name="status_time" label="Time of the DNF or DSQ" hint="Time of day, HH:MM:SS; needed for DNF and DSQ" placeholder="11:42:00" {...common} />
      </fieldset>
      <button type="submit" disabled={props.pending}>
        {props.pending ? "Saving…" : props.submitLabel}
      </button>
    </Form>
  );
}
