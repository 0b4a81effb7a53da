/** The builder's status panel: where the form stands in review, the reviewer's note, and "Submit for approval". */
import { Form, useActionData, useNavigation } from "@remix-run/react";
import type { RegistrationStatus } from "../../core/registration/status";
import { FormMessage } from "./auth-card";
import type { SetupReply } from "./form-kit";
import { TextAreaField } from "./form-kit";

const EXPLANATIONS: Record<RegistrationStatus, string> = {
  "Test Mode": "Only people who manage this form can try it; nobody can pay until a System Administrator approves it.",
  "Pending Approval": "A System Administrator is reviewing the form. You can keep editing it meanwhile.",
  "Changes Required": "The reviewer asks for changes before the form can go live. Make them, then submit it again.",
  "Changes Recommended": "The reviewer suggests changes. Make them if you agree, then submit the form again.",
  "Live Mode": "The form is approved and takes registrations between its opening and closing times.",
};

export function StatusPanel(props: { action: string; status: RegistrationStatus; note: string; canSubmit: boolean }) {
  const reply = useActionData<SetupReply>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "submit";
  const sentBack = props.status === "Changes Required" || props.status === "Changes Recommended";
  return (
    <section className="registration-status" aria-labelledby="status-heading">
      <h2 id="status-heading" className="visually-hidden">
        Status
      </h2>
      <p>
        Status: <strong data-testid="registration-status">{props.status}</strong>
      </p>
      <p className="hint">{EXPLANATIONS[props.status]}</p>
      {sentBack && props.note ? (
        <blockquote className="reviewer-note">
          <p>
            <strong>Reviewer's note:</strong> {props.note}
          </p>
        </blockquote>
      ) : null}
      {props.canSubmit ? (
        <Form method="post" action={props.action} className="setup-form">
          <input type="hidden" name="intent" value="submit" />
          {reply?.intent === "submit" ? <FormMessage error={reply.errors.form} /> : null}
          <TextAreaField id="submit-note" name="note" label="Note for the reviewer (optional)" rows={2} maxLength={2000} />
          <button type="submit" disabled={busy}>
            {busy ? "Submitting…" : "Submit for approval"}
          </button>
        </Form>
      ) : null}
    </section>
  );
}
