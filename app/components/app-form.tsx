/** Parts shared by the application pages (/manage/apps): labelled fields, the scope checkboxes, the error page. */
import { Form, isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import { FormMessage } from "./auth-card";

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

/** The redirect URIs, one per line, matched exactly when an app asks for a code. */
export function RedirectUrisField({ max, defaultValue, error }: { max: number; defaultValue?: string; error?: string }) {
  return (
    <Field
      id="redirect_uris"
      label="Redirect URIs"
      hint={`One per line, at most ${max}. Matched exactly; https only, except http://127.0.0.1 and http://localhost.`}
      error={error}
    >
      {(describedBy) => (
        <textarea
          id="redirect_uris"
          name="redirect_uris"
          rows={3}
          defaultValue={defaultValue}
          placeholder="https://app.example/callback"
          required
          spellCheck={false}
          autoCapitalize="none"
          style={boxStyle}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      )}
    </Field>
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

/** The scopes an app may ask for, as checkboxes, with the error for the group. */
export function ScopeChoices({ scopes, chosen, error }: { scopes: readonly string[]; chosen: readonly string[]; error?: string }) {
  return (
    <fieldset style={groupStyle} aria-describedby={error ? "scopes-error" : undefined}>
      <legend style={{ fontWeight: 600 }}>Scopes the app may ask for</legend>
      <div style={{ display: "grid", gap: "0.25rem", gridTemplateColumns: "repeat(auto-fill, minmax(10rem, 1fr))" }}>
        {scopes.map((scope) => (
          <label key={scope} style={choiceStyle}>
            <input type="checkbox" name="scopes" value={scope} defaultChecked={chosen.includes(scope)} /> {scope}
          </label>
        ))}
      </div>
      {error ? (
        <span id="scopes-error" className="form-error">
          {error}
        </span>
      ) : null}
    </fieldset>
  );
}

/** The error page of every application page: 403 explains which role is needed. */
export function AppsErrorBoundary() {
  const error = useRouteError();
  const forbidden = isRouteErrorResponse(error) && error.status === 403;
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="page">
      <h1>{forbidden ? "You cannot manage applications" : notFound ? "Application not found" : "Something went wrong"}</h1>
      <p>
        {forbidden
          ? "Managing applications needs the API Client Admin or Organization Admin role. Ask an administrator of your organisation for one, or switch to a role that has it."
          : notFound
            ? "There is no application at this address that you may manage on this site."
            : "The page could not be shown. Please try again in a moment."}
      </p>
      <p>
        <Link to="/manage/apps">← Applications</Link>
      </p>
    </main>
  );
}
