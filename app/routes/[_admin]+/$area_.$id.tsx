import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useNavigation } from "@remix-run/react";
import { childClassesOf } from "../../../schema/entities/classes";
import { readVisible, removeEntity } from "../../../workers/services/entity-service";
import { historyOf } from "../../../workers/services/entity-history";
import { referencesTo } from "../../../workers/services/entity-references";
import { classOf, historyRowsOf, labelsFor, nameFieldOf, referencedClass, requireAreaAdmin, withReferenceChoices } from "../../admin/entity-admin.server";
import { formFieldsOf, readBackInputs, saveEntityForm } from "../../admin/entity-form.server";
import { EntityForm, HistoryTable, detailHref } from "../../admin/entity-views";
import { ConfirmForm, SavedNotice, useReplyFor } from "../../components/form-kit";
import { ErrorPage } from "../../components/error-page";
import { readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";

/** One object of a super-admin area: its generated form, its history, its children and its deletion. */
async function readObject(request: Request, context: LoaderFunctionArgs["context"], params: LoaderFunctionArgs["params"]) {
  const access = await requireAreaAdmin(request, context, params.area ?? "");
  const entity = classOf(access.area.key, new URL(request.url).searchParams.get("class"));
  const stored = await readVisible(access.entityContext, access.caller, entity, params.id ?? "");
  if (!stored) throw new Response("Not found", { status: 404 });
  return { access, entity, stored };
}

const NOTICES: Record<string, string> = { saved: "Saved.", created: "Created.", unchanged: "Nothing changed." };

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { access, entity, stored } = await readObject(request, context, params);
  const url = new URL(request.url);
  const fields = await withReferenceChoices(
    access,
    entity,
    formFieldsOf(entity, stored.row, (api) => referencedClass(entity, api)?.classname ?? null),
  );
  const referenceFields = fields.filter((f) => f.reference).map((f) => f.api);
  const history = await historyOf(access.db, entity, stored.row.uuid);
  const children = childClassesOf(entity.classname).map(({ entity: child }) => ({
    classname: child.classname,
    area: child.area,
    filter: `${child.parent!.field}=${stored.row.uuid}`,
  }));
  const deleting = url.searchParams.get("delete") === "1";
  const name = nameFieldOf(entity);
  return {
    area: access.area,
    classname: entity.classname,
    id: stored.row.uuid,
    title: (name && typeof stored.row[name] === "string" && stored.row[name]) || stored.row.uuid,
    readOnly: entity.readOnly,
    fields,
    labels: await labelsFor(access.db, entity, [stored.row], referenceFields),
    readBack: readBackInputs(stored),
    history: historyRowsOf(history),
    children,
    deleting,
    usedBy: deleting ? await referencesTo(access.db, entity, stored.row.uuid) : [],
    saved: NOTICES[url.searchParams.get("saved") ?? ""] ?? null,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { access, entity, stored } = await readObject(request, context, params);
  const posted = await readPostedForm(request);
  const here = detailHref(access.area.key, entity.classname, stored.row.uuid);
  if (posted.intent === "delete") {
    const removed = await removeEntity(access.entityContext, access.caller, entity, stored);
    if (!removed.ok) return refuse(posted, { form: removed.refusal.body.message }, removed.refusal.status === 404 ? 404 : 409);
    return redirect(`/_admin/${access.area.key}?class=${entity.classname}&deleted=1`);
  }
  if (posted.intent !== "save") return unknownIntent(posted);
  const saved = await saveEntityForm(access.entityContext, access.caller, entity, stored, posted.values);
  if (!saved.ok) return refuse(posted, saved.errors, saved.status);
  if (!saved.changed) return redirect(`${here}&saved=unchanged`);
  return redirect(`${here}&saved=saved`);
}

export const ErrorBoundary = () => (
  <ErrorPage
    page
    forbidden="This area is open to System Administrators whose configuration includes it. Ask a System Administrator to add it to your role."
    notFound="There is no such object in this area, or your configuration does not reach it."
    back={{ to: "/_admin", label: "Administration" }}
  />
);

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.title} · ${data.classname} · Administration` : "Administration" }];

export default function AdminObject() {
  const data = useLoaderData<typeof loader>();
  const reply = useReplyFor("save");
  const deleteReply = useReplyFor("delete");
  const navigation = useNavigation();
  const here = detailHref(data.area.key, data.classname, data.id);
  return (
    <main className="page">
      <p>
        <Link to={`/_admin/${data.area.key}?class=${data.classname}`}>← {data.area.label}</Link>
      </p>
      <h1>{data.title}</h1>
      <p className="hint">
        {data.classname} · <code>{data.id}</code>
      </p>
      <SavedNotice message={data.saved} />
      {data.classname === "ValidationSystem" ? (
        <p>
          <Link to={`/_admin/validation/${data.id}/numbers`}>Valid numbers: upload a list or check a number</Link>
        </p>
      ) : null}
      {data.deleting && data.usedBy.length > 0 ? (
        <section className="confirm-panel" aria-labelledby="confirm-heading">
          <h2 id="confirm-heading">This {data.classname} cannot be deleted yet</h2>
          <p>It is still used by {data.usedBy.map((u) => `${u.count} ${u.classname}${u.count === 1 ? "" : "s"}`).join(", ")}. Move or delete those first.</p>
          <Link to={here} className="button secondary">
            Back
          </Link>
        </section>
      ) : data.deleting ? (
        <ConfirmForm
          title={`Delete this ${data.classname}?`}
          intent="delete"
          action={here}
          label="Delete"
          pendingLabel="Deleting…"
          pending={navigation.state === "submitting"}
          cancelTo={here}
          error={deleteReply.errors.form}
          danger
        >
          <p>It is removed for good. Its last values stay in its history.</p>
        </ConfirmForm>
      ) : null}
      {data.readOnly ? <p>This kind of object is made and changed by its own flow, so it is shown here, not edited.</p> : null}
      <EntityForm
        intent="save"
        fields={data.fields}
        errors={reply.errors}
        typed={reply.values}
        labels={data.labels}
        hidden={data.readBack}
        label="Save changes"
        busyLabel="Saving…"
      />
      {data.readOnly || data.deleting ? null : (
        <p>
          <Link to={`${here}&delete=1`} className="danger-link">
            Delete…
          </Link>
        </p>
      )}
      {data.children.length > 0 ? (
        <>
          <h2>Parts</h2>
          <ul>
            {data.children.map((child) => (
              <li key={child.classname}>
                <Link to={`/_admin/${child.area}?class=${child.classname}&filters=${encodeURIComponent(child.filter)}`}>{child.classname} list</Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h2>History</h2>
      <HistoryTable rows={data.history} />
    </main>
  );
}
