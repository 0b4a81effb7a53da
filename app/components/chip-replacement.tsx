/** The parts of a "Replace chip" form shared by the racer page and the timer's page (decisions 0068, 0073). */
import { SelectField, TextField, type FieldErrors } from "./form-kit";

export interface ReplacementRow {
  id: string;
  at: string;
  oldChip: string | null;
  newChip: string;
  reason: string;
}

/** The new chip and why the old one goes; what was typed comes back with a refusal. */
export function ReplacementFields({ errors, values }: { errors: FieldErrors; values?: Record<string, string> | null }) {
  return (
    <>
      <TextField name="new_chip" label="New chip (hex code)" error={errors.new_chip} defaultValue={values?.new_chip} />
      <SelectField
        name="reason"
        label="The old chip is"
        choices={[
          { value: "lost", label: "Lost" },
          { value: "faulty", label: "Faulty" },
        ]}
        defaultValue={values?.reason}
        error={errors.reason}
      />
    </>
  );
}

export function ReplacementList({ replacements }: { replacements: readonly ReplacementRow[] }) {
  return (
    <ul className="plain-list">
      {replacements.map((r) => (
        <li key={r.id}>{`${r.at} UTC: ${r.oldChip ?? "no chip"} (${r.reason}) → ${r.newChip}`}</li>
      ))}
    </ul>
  );
}
