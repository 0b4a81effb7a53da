/**
 * The form kit every page is built from: labelled fields that show the spec's error next to the control,
 * a confirmation step, row links and notices. Everything works before hydration; the server parses what was
 * posted with the same zod schemas (app/forms/posted-form.server.ts) and sends back errors by field.
 */
import { Form, Link, useActionData, useLocation, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { FormMessage } from "./auth-card";

export type FieldErrors = Record<string, string>;

// The shared stylesheet styles text inputs only; these match them for the textareas, select and choice groups.
export const boxStyle = { padding: "0.6rem 0.7rem", font: "inherit", border: "1px solid #9ca3af", borderRadius: "var(--radius)", width: "100%" } as const;
export const groupStyle = {
  border: "1px solid #e5e7eb",
  borderRadius: "var(--radius)",
  padding: "0.5rem 0.9rem 0.75rem",
  margin: "0 0 0.9rem",
  display: "grid",
  gap: "0.35rem",
} as const;
export const choiceStyle = { display: "flex", alignItems: "baseline", gap: "0.4rem" } as const;

/** A labelled control with its hint and error; the error is tied to the control through aria-describedby. */
export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  children: (describedBy: string | undefined) => ReactNode;
}) {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <span id={`${id}-hint`} className="hint">
          {hint}
        </span>
      ) : null}
      {children(ids)}
      {error ? (
        <span id={`${id}-error`} className="form-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}

/**
 * A confirmation before something that cannot be undone: what will happen, one POST with the intent, and
 * Cancel. It works without JavaScript. Used inside a page (h2) or as a page of its own (ConfirmStep, h1).
 */
export function ConfirmForm(props: {
  title: string;
  level?: 1 | 2;
  children: ReactNode;
  error?: string;
  action?: string;
  intent: string;
  /** More hidden fields (the target of a row action). */
  hidden?: Record<string, string>;
  label: string;
  pendingLabel: string;
  pending: boolean;
  cancelTo: string;
  danger?: boolean;
}) {
  const Heading = props.level === 1 ? "h1" : "h2";
  return (
    <section className="confirm-panel" aria-labelledby="confirm-heading">
      <Heading id="confirm-heading">{props.title}</Heading>
      {props.children}
      <FormMessage error={props.error} />
      <Form method="post" action={props.action} className="actions">
        <input type="hidden" name="intent" value={props.intent} />
        {Object.entries(props.hidden ?? {}).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" className={props.danger ? "danger" : undefined} disabled={props.pending}>
          {props.pending ? props.pendingLabel : props.label}
        </button>
        <Link to={props.cancelTo} className="button secondary">
          Cancel
        </Link>
      </Form>
    </section>
  );
}

/** A confirmation as a page of its own (the application pages). */
export function ConfirmStep(props: {
  back: ReactNode;
  title: string;
  explanation: string;
  error?: string;
  action: string;
  intent: string;
  label: string;
  pendingLabel: string;
  pending: boolean;
  danger?: boolean;
}) {
  return (
    <main className="page" style={{ maxWidth: "40rem" }}>
      {props.back}
      <ConfirmForm {...props} level={1} cancelTo={props.action}>
        <p>{props.explanation}</p>
      </ConfirmForm>
    </main>
  );
}

/** What a setup action answers when it does not redirect: errors by field and the typed values, for the form that was sent. */
export interface SetupReply {
  intent: string;
  /** The document (or list entry) the form was about; null for a new one. */
  target: string | null;
  errors: FieldErrors;
  values: Record<string, string>;
}

export interface Choice {
  value: string;
  label: string;
  disabled?: boolean;
}

const invalid = (error: string | undefined) => (error ? true : undefined);

/** A text-like input with its label, hint and error. Numbers are typed as text so the server can say what is wrong. */
export function TextField(props: {
  id?: string;
  name: string;
  label: string;
  hint?: string;
  error?: string;
  defaultValue?: string | number | null;
  type?: "text" | "datetime-local" | "url" | "date";
  inputMode?: "text" | "numeric" | "decimal";
  placeholder?: string;
  required?: boolean;
  maxLength?: number;
}) {
  const id = props.id ?? props.name;
  return (
    <Field id={id} label={props.label} hint={props.hint} error={props.error}>
      {(describedBy) => (
        <input
          id={id}
          name={props.name}
          type={props.type ?? "text"}
          inputMode={props.inputMode}
          placeholder={props.placeholder}
          defaultValue={props.defaultValue ?? ""}
          required={props.required}
          maxLength={props.maxLength}
          aria-invalid={invalid(props.error)}
          aria-describedby={describedBy}
        />
      )}
    </Field>
  );
}

export function TextAreaField(props: {
  id?: string;
  name: string;
  label: string;
  hint?: string;
  error?: string;
  defaultValue?: string;
  rows?: number;
  maxLength?: number;
}) {
  const id = props.id ?? props.name;
  return (
    <Field id={id} label={props.label} hint={props.hint} error={props.error}>
      {(describedBy) => (
        <textarea
          id={id}
          name={props.name}
          rows={props.rows ?? 3}
          defaultValue={props.defaultValue}
          maxLength={props.maxLength}
          aria-invalid={invalid(props.error)}
          aria-describedby={describedBy}
        />
      )}
    </Field>
  );
}

export function SelectField(props: {
  id?: string;
  name: string;
  label: string;
  hint?: string;
  error?: string;
  choices: readonly Choice[];
  defaultValue?: string | null;
}) {
  const id = props.id ?? props.name;
  return (
    <Field id={id} label={props.label} hint={props.hint} error={props.error}>
      {(describedBy) => (
        <select id={id} name={props.name} defaultValue={props.defaultValue ?? ""} aria-invalid={invalid(props.error)} aria-describedby={describedBy}>
          {props.choices.map((c) => (
            <option key={c.value} value={c.value} disabled={c.disabled}>
              {c.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The club a new form or race belongs to: a choice for someone with several clubs, else the one club, named. */
export function ClubField({
  clubs,
  club,
  error,
}: {
  clubs: readonly { id: string; name: string }[];
  club: { id: string; name: string } | null | undefined;
  error?: string;
}) {
  if (clubs.length > 1)
    return <SelectField name="club" label="Club" defaultValue={club?.id} error={error} choices={clubs.map((c) => ({ value: c.id, label: c.name }))} />;
  return (
    <>
      <input type="hidden" name="club" value={club?.id} />
      <p>
        Club: <strong>{club?.name}</strong>
      </p>
      {error ? <p className="form-error">{error}</p> : null}
    </>
  );
}

/** A checkbox; an unchecked box sends nothing, which the server reads as false. */
export function CheckboxField(props: { id?: string; name: string; label: string; hint?: string; defaultChecked?: boolean }) {
  const id = props.id ?? props.name;
  return (
    <div className="field check-field">
      <label htmlFor={id}>
        <input
          id={id}
          name={props.name}
          type="checkbox"
          value="on"
          defaultChecked={props.defaultChecked}
          aria-describedby={props.hint ? `${id}-hint` : undefined}
        />{" "}
        {props.label}
      </label>
      {props.hint ? (
        <span id={`${id}-hint`} className="hint">
          {props.hint}
        </span>
      ) : null}
    </div>
  );
}

/** A group of radio buttons under a legend, with the group's error. */
export function RadioField(props: {
  id?: string;
  name: string;
  legend: string;
  hint?: string;
  error?: string;
  choices: readonly (Choice & { hint?: string })[];
  defaultValue?: string | null;
}) {
  const id = props.id ?? props.name;
  const describedBy = [props.hint ? `${id}-hint` : null, props.error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <fieldset className="choice-group" aria-describedby={describedBy}>
      <legend>{props.legend}</legend>
      {props.hint ? (
        <span id={`${id}-hint`} className="hint">
          {props.hint}
        </span>
      ) : null}
      {props.choices.map((c) => (
        <label key={c.value} className="choice">
          <input type="radio" name={props.name} value={c.value} defaultChecked={(props.defaultValue ?? "") === c.value} disabled={c.disabled} /> {c.label}
          {c.hint ? <span className="hint"> · {c.hint}</span> : null}
        </label>
      ))}
      {props.error ? (
        <span id={`${id}-error`} className="form-error">
          {props.error}
        </span>
      ) : null}
    </fieldset>
  );
}

/**
 * A setup form: a POST with its intent (and the document it is about), a summary when fields are wrong,
 * and a submit button that says when it is busy. Remounts on every navigation so it shows fresh values.
 */
export function SetupForm(props: {
  intent: string;
  target?: string | null;
  action?: string;
  label: string;
  busyLabel: string;
  errors?: FieldErrors;
  className?: string;
  children?: ReactNode;
  danger?: boolean;
  inline?: boolean;
  /** Keep what is typed when the page's data reloads after a save (the form is otherwise drawn afresh, empty). */
  keepValues?: boolean;
  /** A form that uploads a file. */
  encType?: "multipart/form-data";
}) {
  const navigation = useNavigation();
  const location = useLocation();
  const busy =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === props.intent &&
    (navigation.formData?.get("target") ?? null) === (props.target ?? null);
  const errors = props.errors ?? {};
  const fieldErrors = Object.keys(errors).filter((k) => k !== "form").length;
  return (
    <Form
      method="post"
      action={props.action}
      encType={props.encType}
      className={props.className ?? (props.inline ? "inline-form" : "setup-form")}
      key={props.keepValues ? undefined : location.key}
    >
      <input type="hidden" name="intent" value={props.intent} />
      {props.target ? <input type="hidden" name="target" value={props.target} /> : null}
      {errors.form ? <FormMessage error={errors.form} /> : null}
      {fieldErrors > 0 ? <FormMessage error="Please correct the fields marked below." /> : null}
      {props.children}
      <button type="submit" className={props.inline ? "small" : props.danger ? "danger" : undefined} disabled={busy}>
        {busy ? props.busyLabel : props.label}
      </button>
    </Form>
  );
}

/** The action's reply when it belongs to this form (same intent and document), else nothing. */
export function useReplyFor(intent: string, target: string | null = null): { errors: FieldErrors; values: Record<string, string> | null } {
  const reply = useActionData<SetupReply>();
  if (!reply || reply.intent !== intent || (reply.target ?? null) !== target) return { errors: {}, values: null };
  return { errors: reply.errors, values: reply.values };
}

/** A confirmation step inside a setup page: what will happen, the button that does it, and a way back. */
export function ConfirmPanel(props: {
  title: string;
  explanation: ReactNode;
  intent: string;
  target?: string | null;
  action?: string;
  label: string;
  busyLabel: string;
  cancelTo: string;
  danger?: boolean;
}) {
  const { errors } = useReplyFor(props.intent, props.target ?? null);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === props.intent;
  return (
    <ConfirmForm
      title={props.title}
      error={errors.form}
      action={props.action}
      intent={props.intent}
      hidden={props.target ? { target: props.target } : undefined}
      label={props.label}
      pendingLabel={props.busyLabel}
      pending={busy}
      cancelTo={props.cancelTo}
      danger={props.danger !== false}
    >
      <p>{props.explanation}</p>
    </ConfirmForm>
  );
}

/** A form needs a list that is empty: says so and links to the page that fills it ("No devices yet. Add a device first."). */
export function NoneYet({ what, to, label, then = "first." }: { what: string; to: string; label: string; then?: string }) {
  return (
    <p className="empty-state">
      {`No ${what} yet. `}
      <Link to={to}>{label}</Link>
      {` ${then}`}
    </p>
  );
}

/** A pending delete's confirmation for SetupSection, in the item's words; null when nothing is being deleted. */
export function removal<T extends { id: string }>(
  item: T | null | undefined,
  words: (item: T) => { title: string; explanation: string; label: string; target?: string },
): { target: string; title: string; explanation: string; label: string } | null {
  if (!item) return null;
  const { target, ...rest } = words(item);
  return { target: target ?? item.id, ...rest };
}

/**
 * The frame of a race setup page: its heading and hint, the saved notice, and the confirmation of a pending
 * delete, above the page's own list, editor and add form.
 */
export function SetupSection(props: {
  id: string;
  title: string;
  hint?: string;
  saved: string | null;
  base: string;
  removing: { target: string; title: string; explanation: string; label: string } | null;
  children: ReactNode;
}) {
  const { removing } = props;
  return (
    <section aria-labelledby={`${props.id}-heading`}>
      <h2 id={`${props.id}-heading`}>{props.title}</h2>
      {props.hint ? <p className="hint">{props.hint}</p> : null}
      <SavedNotice message={props.saved} />
      {removing ? (
        <ConfirmPanel
          title={removing.title}
          explanation={removing.explanation}
          intent="delete"
          target={removing.target}
          label={removing.label}
          busyLabel="Deleting…"
          cancelTo={props.base}
        />
      ) : null}
      {props.children}
    </section>
  );
}

/** A one-button form inside a table row (move up, remove…): keyboard-usable, and it works without JavaScript. */
export function RowButton(props: {
  intent: string;
  target: string;
  extra?: Record<string, string>;
  label: string;
  accessibleLabel?: string;
  disabled?: boolean;
  action?: string;
}) {
  return (
    <Form method="post" action={props.action} className="row-button">
      <input type="hidden" name="intent" value={props.intent} />
      <input type="hidden" name="target" value={props.target} />
      {Object.entries(props.extra ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="small secondary" disabled={props.disabled} aria-label={props.accessibleLabel}>
        {props.label}
      </button>
    </Form>
  );
}

/** Edit and delete links of a listed document. */
export function RowLinks({ base, id, name, mayEdit }: { base: string; id: string; name: string; mayEdit: boolean }) {
  if (!mayEdit) return null;
  return (
    <span className="row-links">
      <Link to={`${base}?edit=${id}`} aria-label={`Edit ${name}`}>
        Edit
      </Link>
      <Link to={`${base}?delete=${id}`} aria-label={`Delete ${name}`} className="danger-link">
        Delete…
      </Link>
    </span>
  );
}

/** The outcome of the last change, carried in the address (`?saved=`), shown once. */
export function SavedNotice({ message }: { message: string | null }) {
  return message ? <FormMessage notice={message} /> : null;
}
