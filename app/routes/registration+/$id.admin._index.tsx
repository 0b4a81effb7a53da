import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import * as z from "zod";
import { FIELD_TYPES } from "../../../core/forms/model";
import { missingMemberDetails } from "../../../core/forms/membership";
import { addElement, deleteElement, listElements, moveElement } from "../../../workers/services/registration-forms";
import { elementRowOf, requireRegistrationAccess, withNotice } from "../../registration-admin.server";
import { parseForm, readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import { choicesOf, FIELD_TYPE_LABELS } from "../../components/form-builder-choices";
import { ElementList } from "../../components/form-builder-list";
import { ConfirmPanel, SelectField, SetupForm, TextField, useReplyFor, type SetupReply } from "../../components/form-kit";
import { ErrorPage, REGISTRATION_ADMIN_ERRORS } from "../../components/error-page";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { registration, builder, may } = await requireRegistrationAccess(request, context, params.id, "view");
  const elements = await listElements(builder.db, registration.id);
  const rows = elements.map(elementRowOf);
  const removeId = new URL(request.url).searchParams.get("delete");
  // A membership needs the member's details; say which the form cannot ask for, before a registrant is refused.
  const memberGaps = elements.some((e) => e.type === "membership") ? missingMemberDetails(elements, () => true) : [];
  return { registrationId: registration.id, may, rows, memberGaps, removing: may.edit ? (rows.find((r) => r.id === removeId) ?? null) : null };
}

const addSchema = z.object({
  type: z.enum(FIELD_TYPES, { error: "Choose a field type" }),
  caption: z
    .string()
    .default("")
    .transform((v) => v.trim().slice(0, 2000)),
});

/** A move names either a direction (the row buttons) or the new position (a drag and drop). */
const moveSchema = z.object({
  target: z.string().min(1),
  direction: z.enum(["up", "down"]).optional(),
  toIndex: z.coerce.number().int().min(0).max(10_000).optional(),
});

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { registration, builder } = await requireRegistrationAccess(request, context, params.id, "edit");
  const posted = await readPostedForm(request);
  const base = `/registration/${registration.id}/admin`;
  if (posted.intent === "add") {
    const parsed = parseForm(addSchema, posted);
    if (!parsed.ok) return parsed.reply;
    const result = await addElement(builder, registration, parsed.value);
    return result.ok ? redirect(withNotice(`${base}/elements/${result.value.id}`, "added")) : refuse(posted, result.errors);
  }
  if (posted.intent === "move") {
    const parsed = parseForm(moveSchema, posted);
    const elements = await listElements(builder.db, registration.id);
    const from = elements.findIndex((e) => e.id === posted.target);
    if (!parsed.ok || from < 0) return refuse(posted, { form: "That field is no longer on the form. The page now shows the current list." }, 409);
    const { direction, toIndex } = parsed.value;
    const to = direction === "up" ? from - 1 : direction === "down" ? from + 1 : toIndex;
    if (to === undefined) return refuse(posted, { form: "Say where the field goes" });
    const result = await moveElement(builder, registration, elements[from]!.id, Math.max(0, Math.min(elements.length - 1, to)));
    return result.ok ? redirect(withNotice(base, "moved")) : refuse(posted, result.errors, 409);
  }
  if (posted.intent === "delete" && posted.target) {
    const result = await deleteElement(builder, registration, posted.target);
    return result.ok ? redirect(withNotice(base, "deleted")) : refuse(posted, result.errors, 409);
  }
  return unknownIntent(posted);
}

export default function RegistrationFields() {
  const data = useLoaderData<typeof loader>();
  const base = `/registration/${data.registrationId}/admin`;
  const reply = useActionData<SetupReply>();
  // A refused delete shows in its confirmation when that is open; a refused move (or delete) above the list.
  const listError = reply && (reply.intent === "move" || (reply.intent === "delete" && data.removing?.id !== reply.target)) ? reply.errors.form : undefined;
  return (
    <section aria-labelledby="fields-heading">
      <h2 id="fields-heading">Fields</h2>
      {data.memberGaps.length > 0 ? (
        <p
          role="status"
          className="warning"
          data-testid="member-gaps"
        >{`This form has a membership field, but no field asks for the member's ${data.memberGaps.join(", ")}. Registrants who choose a membership are asked for them and cannot continue until the form has these fields.`}</p>
      ) : null}
      {data.removing ? (
        <ConfirmPanel
          title={`Delete the field “${data.removing.caption || data.removing.typeLabel}”?`}
          explanation="The field goes from the form, and answers already given to it are no longer shown. This cannot be undone."
          intent="delete"
          target={data.removing.id}
          label="Delete field"
          busyLabel="Deleting…"
          cancelTo={base}
        />
      ) : null}
      {listError ? (
        <p className="form-error" role="alert">
          {listError}
        </p>
      ) : null}
      <ElementList registrationId={data.registrationId} rows={data.rows} mayEdit={data.may.edit} />
      {data.may.edit ? <AddFieldForm /> : null}
    </section>
  );
}

function AddFieldForm() {
  const { errors, values } = useReplyFor("add");
  return (
    <section aria-labelledby="add-field-heading">
      <h3 id="add-field-heading">Add a field</h3>
      <SetupForm intent="add" label="Add field" busyLabel="Adding…" errors={errors}>
        <SelectField id="add-type" name="type" label="Type" defaultValue={values?.type ?? "text"} error={errors.type} choices={choicesOf(FIELD_TYPE_LABELS)} />
        <TextField
          id="add-caption"
          name="caption"
          label="Caption"
          hint="What registrants see; you can change it in the field's editor."
          maxLength={2000}
          defaultValue={values?.caption}
          error={errors.caption}
        />
      </SetupForm>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage {...REGISTRATION_ADMIN_ERRORS} />;
}
