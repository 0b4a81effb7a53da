import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { createEntity, readVisible } from "../../../workers/services/entity-service";
import { classOf, referencedClass, requireAreaAdmin, withReferenceChoices } from "../../admin/entity-admin.server";
import { createValuesOf, errorsOfRefusal, formFieldsOf } from "../../admin/entity-form.server";
import { EntityForm, detailHref } from "../../admin/entity-views";
import { useReplyFor } from "../../components/form-kit";
import { ErrorPage } from "../../components/error-page";
import { readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";

/** A new object of a super-admin area, from the class's generated form. */
async function classToCreate(request: Request, context: LoaderFunctionArgs["context"], params: LoaderFunctionArgs["params"]) {
  const access = await requireAreaAdmin(request, context, params.area ?? "");
  const entity = classOf(access.area.key, new URL(request.url).searchParams.get("class"));
  if (entity.readOnly) throw new Response("Not found", { status: 404 });
  return { access, entity };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { access, entity } = await classToCreate(request, context, params);
  return {
    area: access.area,
    classname: entity.classname,
    description: entity.description,
    fields: await withReferenceChoices(
      access,
      entity,
      formFieldsOf(entity, null, (api) => referencedClass(entity, api)?.classname ?? null),
    ),
    // One id per opened form: sending it twice (a double click, a resent form) makes one object.
    submission: crypto.randomUUID(),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { access, entity } = await classToCreate(request, context, params);
  const posted = await readPostedForm(request);
  if (posted.intent !== "create") return unknownIntent(posted);
  const submission = posted.values.submission ?? "";
  const values = createValuesOf(entity, posted.values);
  if (!values.ok) return refuse(posted, values.errors);
  const created = await createEntity(access.entityContext, access.caller, entity, { ...values.values, uuid: submission });
  if (!created.ok) {
    // The same form sent again after it was saved: show what the first one made.
    if (created.refusal.status === 409 && created.refusal.body.message.endsWith("with that uuid exists")) {
      if (await readVisible(access.entityContext, access.caller, entity, submission))
        return redirect(`${detailHref(access.area.key, entity.classname, submission)}&saved=created`);
    }
    const shown = entity.fields.map((f) => f.api);
    return refuse(posted, errorsOfRefusal(created.refusal.body, shown), created.refusal.status === 403 ? 403 : created.refusal.status === 409 ? 409 : 400);
  }
  return redirect(`${detailHref(access.area.key, entity.classname, created.value.row.uuid)}&saved=created`);
}

export const ErrorBoundary = () => (
  <ErrorPage
    page
    forbidden="This area is open to System Administrators whose configuration includes it. Ask a System Administrator to add it to your role."
    back={{ to: "/_admin", label: "Administration" }}
  />
);

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `New ${data.classname} · Administration` : "Administration" }];

export default function NewAdminObject() {
  const data = useLoaderData<typeof loader>();
  const reply = useReplyFor("create");
  return (
    <main className="page">
      <p>
        <Link to={`/_admin/${data.area.key}?class=${data.classname}`}>← {data.area.label}</Link>
      </p>
      <h1>New {data.classname}</h1>
      <p>{data.description}.</p>
      <EntityForm
        intent="create"
        fields={data.fields}
        errors={reply.errors}
        typed={reply.values}
        labels={{}}
        hidden={{ submission: data.submission }}
        label={`Create ${data.classname}`}
        busyLabel="Creating…"
      />
    </main>
  );
}
