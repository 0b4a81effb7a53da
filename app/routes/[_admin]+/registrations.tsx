import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import * as z from "zod";
import { approvalChangeFor, approvalNoteOf } from "../../../core/registration/status";
import { canOnRegistration, changeRegistration, getRegistration, listRegistrations } from "../../../workers/services/registration-forms";
import { noticeOf, requireRegistrationReviewer, withNotice } from "../../registration-admin.server";
import { parseForm, readPostedForm, refuse } from "../../forms/posted-form.server";
import { FormMessage } from "../../components/auth-card";
import { SavedNotice, TextAreaField, type SetupReply } from "../../components/form-kit";
import { loadAreaList, requireAreaAdmin } from "../../admin/entity-admin.server";
import { AreaList } from "../../admin/entity-views";
import { ErrorPage, REGISTRATION_ADMIN_ERRORS } from "../../components/error-page";

export const meta: MetaFunction = () => [{ title: "Registration Forms · Administration" }];

/** The super-admin area "registrations": the forms waiting for approval, each to approve or send back. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { db, principal } = await requireRegistrationReviewer(request, context);
  const pending = await listRegistrations(db, principal, context.tenant, { pendingOnly: true });
  return {
    list: await loadAreaList(request, await requireAreaAdmin(request, context, "registrations")),
    saved: noticeOf(request),
    pending: pending.map((f) => ({ id: f.id, name: f.name, clubName: f.clubName, note: approvalNoteOf(f.approvalStatus) })),
  };
}

const reviewSchema = z
  .object({
    intent: z.enum(["approve", "requireChanges", "recommendChanges"], { error: "Unknown action" }),
    target: z.string().min(1),
    note: z
      .string()
      .default("")
      .transform((v) => v.trim().slice(0, 2000)),
  })
  .superRefine((v, ctx) => {
    if (v.intent !== "approve" && v.note === "") ctx.addIssue({ code: "custom", path: ["note"], message: "Say what should change" });
  });

export async function action({ request, context }: ActionFunctionArgs) {
  const { db, principal, builder } = await requireRegistrationReviewer(request, context);
  const posted = await readPostedForm(request);
  const parsed = parseForm(reviewSchema, posted);
  if (!parsed.ok) return parsed.reply;
  const { intent, target, note } = parsed.value;
  const registration = await getRegistration(db, context.tenant, target);
  if (!registration || !canOnRegistration(principal, "administer", registration)) throw new Response("Not found", { status: 404 });
  if (!registration.isPending) return refuse(posted, { form: "This form is no longer waiting for approval. The page now shows the current queue." }, 409);
  const result = await changeRegistration(builder, registration, { ...approvalChangeFor(intent, note) });
  return result.ok ? redirect(withNotice("/_admin/registrations", intent)) : refuse(posted, result.errors, 409);
}

export default function RegistrationQueue() {
  const { saved, pending, list } = useLoaderData<typeof loader>();
  return (
    <main className="page">
      <p>
        <a href="/_admin">← Administration</a>
      </p>
      <h1>Registration Forms</h1>
      <SavedNotice message={saved} />
      <h2>Waiting for approval</h2>
      {pending.length === 0 ? (
        <p className="empty-state">No forms are waiting for approval.</p>
      ) : (
        <ul className="review-list">
          {pending.map((form) => (
            <li key={form.id}>
              <ReviewItem form={form} />
            </li>
          ))}
        </ul>
      )}
      <AreaList data={list} />
    </main>
  );
}

function ReviewItem({ form }: { form: { id: string; name: string; clubName: string; note: string } }) {
  const reply = useActionData<SetupReply>();
  const mine = reply && reply.target === form.id ? reply : null;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("target") === form.id;
  const headingId = `review-${form.id}`;
  return (
    <article className="review-item" aria-labelledby={headingId}>
      <h3 id={headingId}>{form.name}</h3>
      <p className="race-meta">
        {form.clubName} · <a href={`/registration/${form.id}/admin`}>Open the builder</a> · <a href={`/register/${form.id}?preview=1`}>Preview</a>
      </p>
      {form.note ? (
        <p>
          <strong>The club's note:</strong> {form.note}
        </p>
      ) : null}
      <Form method="post" className="setup-form">
        <input type="hidden" name="target" value={form.id} />
        {mine?.errors.form ? <FormMessage error={mine.errors.form} /> : null}
        <TextAreaField
          id={`note-${form.id}`}
          name="note"
          label="Note to the club"
          hint="Needed to require or recommend changes; shown to the club with the status."
          rows={2}
          maxLength={2000}
          defaultValue={mine?.values.note}
          error={mine?.errors.note}
        />
        <div className="actions">
          <button type="submit" name="intent" value="approve" disabled={busy}>
            Approve
          </button>
          <button type="submit" name="intent" value="requireChanges" className="danger" disabled={busy}>
            Require changes
          </button>
          <button type="submit" name="intent" value="recommendChanges" className="secondary" disabled={busy}>
            Recommend changes
          </button>
        </div>
      </Form>
    </article>
  );
}

export function ErrorBoundary() {
  return (
    <ErrorPage
      page
      {...REGISTRATION_ADMIN_ERRORS}
      forbidden="Reviewing registration forms needs a System Administrator whose configuration includes registrations."
      back={{ to: "/_admin", label: "Administration" }}
    />
  );
}
