/**
 * Inputs inside the rows of the option and discount tables: each has its own label (read by screen readers,
 * hidden on screen where the column header says it) and its error tied to it through aria-describedby.
 */
import type { Choice } from "./form-kit";

const errorId = (id: string) => `${id}-error`;

/** The input's label: hidden on screen in a table row; in a grid, a short visible word and the full text for screen readers. */
function CellLabel({ id, label, visibleLabel }: { id: string; label: string; visibleLabel?: string }) {
  if (!visibleLabel) {
    return (
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
    );
  }
  return (
    <label htmlFor={id}>
      <span aria-hidden="true">{visibleLabel}</span>
      <span className="visually-hidden">{label}</span>
    </label>
  );
}

function CellError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <span id={errorId(id)} className="form-error">
      {error}
    </span>
  ) : null;
}

export function CellInput(props: {
  name: string;
  label: string;
  visibleLabel?: string;
  defaultValue: string;
  error?: string;
  inputMode?: "decimal" | "numeric";
  maxLength?: number;
  size?: number;
  autoFocus?: boolean;
}) {
  const id = props.name;
  return (
    <div className="cell-field">
      <CellLabel id={id} label={props.label} visibleLabel={props.visibleLabel} />
      <input
        id={id}
        name={props.name}
        type="text"
        defaultValue={props.defaultValue}
        inputMode={props.inputMode}
        maxLength={props.maxLength}
        size={props.size}
        // The new row of "Add option" takes the focus, so keyboard users carry on typing there.
        autoFocus={props.autoFocus}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? errorId(id) : undefined}
      />
      <CellError id={id} error={props.error} />
    </div>
  );
}

export function CellSelect(props: { name: string; label: string; visibleLabel?: string; defaultValue: string; choices: readonly Choice[]; error?: string }) {
  const id = props.name;
  return (
    <div className="cell-field">
      <CellLabel id={id} label={props.label} visibleLabel={props.visibleLabel} />
      <select
        id={id}
        name={props.name}
        defaultValue={props.defaultValue}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? errorId(id) : undefined}
      >
        {props.choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      <CellError id={id} error={props.error} />
    </div>
  );
}

export function CellCheck(props: { name: string; label: string; defaultChecked: boolean; visibleLabel?: string }) {
  return (
    <label className="cell-check" htmlFor={props.name}>
      <input id={props.name} name={props.name} type="checkbox" value="on" defaultChecked={props.defaultChecked} />
      {props.visibleLabel ? <span aria-hidden="true"> {props.visibleLabel}</span> : null}
      <span className="visually-hidden">{props.label}</span>
    </label>
  );
}

/** An error about a whole list (duplicate ids or codes), above it. */
export function ListError({ error }: { error?: string }) {
  return error ? (
    <p className="form-error" role="alert">
      {error}
    </p>
  ) : null;
}
