/** A confirmation step inside the race admin layout: what will happen, a POST with the intent, and Cancel. Works without JS. */
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { FormMessage } from "./auth-card";

export function RacerConfirm(props: {
  title: string;
  children: ReactNode;
  error?: string;
  action: string;
  intent: string;
  label: string;
  pendingLabel: string;
  pending: boolean;
  cancel: string;
  danger?: boolean;
}) {
  return (
    <section aria-labelledby="confirm-heading">
      <h2 id="confirm-heading">{props.title}</h2>
      {props.children}
      <FormMessage error={props.error} />
      <Form method="post" action={props.action} className="actions">
        <input type="hidden" name="intent" value={props.intent} />
        <button type="submit" className={props.danger ? "danger" : undefined} disabled={props.pending}>
          {props.pending ? props.pendingLabel : props.label}
        </button>
        <Link to={props.cancel} className="button secondary">
          Cancel
        </Link>
      </Form>
    </section>
  );
}
