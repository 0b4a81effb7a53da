import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import * as z from "zod";
import { ValidationSystem } from "../../../schema/entities/admin-classes";
import { readVisible } from "../../../workers/services/entity-service";
import { isOnList, latestFile, systemOfId, uploadNumbers } from "../../../workers/services/validation-systems";
import { requireAreaAdmin } from "../../admin/entity-admin.server";
import { detailHref } from "../../admin/entity-views";
import { FormMessage } from "../../components/auth-card";
import { Field, SavedNotice, TextField } from "../../components/form-kit";
import { ErrorPage } from "../../components/error-page";
import { readPostedForm } from "../../forms/posted-form.server";

/** A list system's numbers (decision 0052): upload a CSV to replace them, and look one number up. */
async function readSystem(request: Request, context: LoaderFunctionArgs["context"], id: string | undefined) {
  const access = await requireAreaAdmin(request, context, "validation");
  const stored = await readVisible(access.entityContext, access.caller, ValidationSystem, id ?? "");
  const system = stored ? await systemOfId(access.db, stored.row.uuid as string) : null;
  if (!system) throw new Response("Not found", { status: 404 });
  return { access, system };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { access, system } = await readSystem(request, context, params.id);
  const file = await latestFile(access.db, system.id);
  const uploaded = new URL(request.url).searchParams.get("uploaded");
  return {
    id: system.id,
    name: system.name,
    kind: system.kind,
    file: file
      ? { filename: file.filename, uploadedTime: new Date(file.uploadedTime).toISOString(), column: file.numberColumn, count: file.numberCount }
      : null,
    notice: uploaded === "1" ? "The list is replaced." : null,
    submission: crypto.randomUUID(),
  };
}

const uploadForm = z.object({ column: z.string().max(200), submission: z.uuid() });
const checkForm = z.object({ number: z.string().trim().min(1, "Enter a number").max(64, "At most 64 characters") });
type Reply = { intent: string; errors: Record<string, string>; found?: { number: string; onList: boolean } };

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { access, system } = await readSystem(request, context, params.id);
  const posted = await readPostedForm(request);
  if (posted.intent === "check") {
    const read = checkForm.safeParse(posted.values);
    if (!read.success) return data<Reply>({ intent: "check", errors: { number: read.error.issues[0]!.message } }, { status: 400 });
    return data<Reply>({ intent: "check", errors: {}, found: { number: read.data.number, onList: await isOnList(access.db, system.id, read.data.number) } });
  }
  if (posted.intent !== "upload") return data<Reply>({ intent: posted.intent, errors: { form: "Unknown action" } }, { status: 400 });
  const read = uploadForm.safeParse(posted.values);
  if (!read.success) return data<Reply>({ intent: "upload", errors: { form: "The form was not complete; reload the page and try again" } }, { status: 400 });
  const file = posted.files.file;
  if (!file || file.size === 0) return data<Reply>({ intent: "upload", errors: { file: "Choose a CSV file" } }, { status: 400 });
  const uploaded = await uploadNumbers(access.db, system, {
    submission: read.data.submission,
    filename: file.name,
    text: await file.text(),
    column: read.data.column,
    userId: access.caller.userId,
    now: context.now,
  });
  if (!uploaded.ok) return data<Reply>({ intent: "upload", errors: uploaded.errors }, { status: 400 });
  return redirect(`/_admin/validation/${system.id}/numbers?uploaded=1`);
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.name} · Numbers · Administration` : "Administration" }];

export default function ValidationNumbers() {
  const loaded = useLoaderData<typeof loader>();
  const reply = useActionData<Reply>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "upload";
  const errors = reply?.intent === "upload" ? reply.errors : {};
  const checkErrors = reply?.intent === "check" ? reply.errors : {};
  return (
    <section aria-labelledby="numbers-heading">
      <p>
        <Link to={detailHref("validation", "ValidationSystem", loaded.id)}>← {loaded.name}</Link>
      </p>
      <h1 id="numbers-heading">Valid numbers of {loaded.name}</h1>
      <SavedNotice message={loaded.notice} />
      {loaded.kind !== "list" ? (
        <p>This validation system checks a pattern, not a list: change its pattern on its page.</p>
      ) : (
        <>
          <p>
            {loaded.file
              ? `${loaded.file.count.toLocaleString("en")} numbers from ${loaded.file.filename} (column ${loaded.file.column}), uploaded ${loaded.file.uploadedTime.replace("T", " ").slice(0, 16)} UTC.`
              : "No list uploaded yet: until one is, a field using this system accepts any number."}
          </p>
          <h2>Upload a list</h2>
          <p>
            A CSV file whose first row names the columns. The new list replaces the old one whole. Numbers are compared without spaces, dashes, dots, case or
            leading zeros.
          </p>
          <Form method="post" encType="multipart/form-data" className="setup-form">
            <input type="hidden" name="intent" value="upload" />
            <input type="hidden" name="submission" value={loaded.submission} />
            <FormMessage error={errors.form} />
            <Field id="numbers-file" label="CSV file" error={errors.file}>
              {(describedBy) => <input id="numbers-file" name="file" type="file" accept=".csv,text/csv,text/plain" aria-describedby={describedBy} />}
            </Field>
            <TextField
              name="column"
              label="Column"
              hint="The header of the column that holds the numbers, such as Licence."
              maxLength={200}
              error={errors.column}
            />
            <button type="submit" disabled={busy}>
              {busy ? "Uploading…" : "Upload and replace the list"}
            </button>
          </Form>
          <h2>Check a number</h2>
          <Form method="post" className="setup-form">
            <input type="hidden" name="intent" value="check" />
            <TextField name="number" label="Number" maxLength={64} error={checkErrors.number} />
            <button type="submit">Check</button>
          </Form>
          {reply?.found ? (
            <p role="status">{reply.found.onList ? `${reply.found.number} is on the list.` : `${reply.found.number} is not on the list.`}</p>
          ) : null}
        </>
      )}
    </section>
  );
}

export const ErrorBoundary = () => (
  <ErrorPage
    page
    forbidden="This area is open to System Administrators whose configuration includes it. Ask a System Administrator to add it to your role."
    notFound="There is no such object in this area, or your configuration does not reach it."
    back={{ to: "/_admin", label: "Administration" }}
  />
);
