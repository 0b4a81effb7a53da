import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { Link, useLoaderData, useNavigation } from "@remix-run/react";
import { historyRowsOf } from "../../admin/entity-admin.server";
import { HistoryTable } from "../../admin/entity-views";
import { editMember, entityAccess } from "../../admin/member-edits.server";
import { requireDivisionAccess } from "../../admin/memberships.server";
import { memberHistory, readMember, seasonChoices } from "../../../workers/services/member-edits";
import { pageQuery, readPostedForm, unknownIntent } from "../../forms/posted-form.server";
import { ConfirmForm, SavedNotice, SetupForm, useReplyFor } from "../../components/form-kit";
import { MembershipFields, PersonFields } from "../../components/member-forms";
import { ErrorPage } from "../../components/error-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Member ${data.person.member_number} · ${data.divisionName}` : "Member" }];

async function memberOf(request: Request, context: LoaderFunctionArgs["context"], params: LoaderFunctionArgs["params"]) {
  const access = await requireDivisionAccess(request, context, params.division ?? "");
  if (!access.division) throw new Response("Not found", { status: 404 });
  const { entityContext, caller } = entityAccess(access, context);
  const found = await readMember(entityContext, caller, access.division, params.member ?? "");
  if (!found) throw new Response("Not found", { status: 404 });
  return { access, division: access.division, found };
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { access, division, found } = await memberOf(request, context, params);
  const { member, person } = found;
  const [history, seasons] = await Promise.all([memberHistory(access.db, member.row.uuid, person.row.uuid), seasonChoices(access.db, division.id)]);
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  const attributes = member.row.attributes as Record<string, unknown>;
  return {
    divisionId: division.id,
    divisionName: division.name,
    mayEdit: access.mayEdit,
    saved: pageQuery(request).saved,
    remove: new URL(request.url).searchParams.get("remove") === "1",
    self: new URL(request.url).pathname,
    person: {
      member_number: Number(person.row.member_number),
      first_name: text(person.row.first_name),
      last_name: text(person.row.last_name),
      birth_date: text(person.row.birth_date),
      gender: text(person.row.gender),
      email: text(person.row.email),
      lang: text(person.row.lang) || "en",
      field_mtimes: JSON.stringify(person.mtimes),
    },
    membership: {
      season: text(member.row.season),
      member_class: text(member.row.member_class),
      programs: (member.row.programs as string[]) ?? [],
      note: text(attributes.note),
      field_mtimes: JSON.stringify(member.mtimes),
    },
    seasons,
    programs: division.programsList,
    history: historyRowsOf(history).map((row, i) => ({ ...row, kind: `${row.kind} (${history[i]!.of})` })),
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { access, division } = await memberOf(request, context, params).catch(async (error: unknown) => {
    // A second "Remove" (a double click) finds the member gone: it answers as the first did, not "not found".
    if (
      error instanceof Response &&
      error.status === 404 &&
      (
        await request
          .clone()
          .formData()
          .catch(() => null)
      )?.get("intent") === "remove"
    ) {
      const access = await requireDivisionAccess(request, context, params.division ?? "");
      if (access.division && access.mayEdit) throw redirect(`/org/${access.division.id}/home?saved=removed`);
    }
    throw error;
  });
  if (!access.mayEdit) throw new Response("Forbidden", { status: 403 });
  const form = request.clone();
  const posted = await readPostedForm(request);
  const here = new URL(request.url).pathname;
  return (await editMember(access, context, division, params.member ?? "", posted, await form.formData(), here)) ?? unknownIntent(posted);
}

export default function MemberPage() {
  const data = useLoaderData<typeof loader>();
  const person = useReplyFor("person");
  const membership = useReplyFor("membership");
  const removing = useReplyFor("remove");
  const navigation = useNavigation();
  const name = `${data.person.first_name} ${data.person.last_name}`;
  return (
    <main className="page">
      <p>
        <Link to={`/org/${data.divisionId}/home`}>← {data.divisionName}</Link>
      </p>
      <h1>{`Member ${data.person.member_number} · ${name}`}</h1>
      <SavedNotice message={data.saved} />
      {data.mayEdit ? (
        <>
          <h2>Person</h2>
          <SetupForm intent="person" label="Save the person" busyLabel="Saving…" errors={person.errors}>
            <input type="hidden" name="field_mtimes" value={data.person.field_mtimes} />
            <PersonFields values={person.values ?? data.person} errors={person.errors} />
          </SetupForm>
          <h2>Membership</h2>
          <SetupForm intent="membership" label="Save the membership" busyLabel="Saving…" errors={membership.errors}>
            <input type="hidden" name="field_mtimes" value={data.membership.field_mtimes} />
            <MembershipFields
              seasons={data.seasons}
              programs={data.programs}
              values={membership.values ?? data.membership}
              chosen={data.membership.programs}
              errors={membership.errors}
            />
          </SetupForm>
          {data.remove ? (
            <ConfirmForm
              title={`Remove ${name}'s membership?`}
              intent="remove"
              label="Remove the membership"
              pendingLabel="Removing…"
              pending={navigation.state === "submitting"}
              cancelTo={data.self}
              error={removing.errors.form}
              danger
            >
              <p>
                The person keeps their member number for another season; this season's membership and its reminder are removed, and its member card is revoked.
              </p>
            </ConfirmForm>
          ) : (
            <p>
              <Link to="?remove=1">Remove this membership…</Link>
            </p>
          )}
        </>
      ) : (
        <dl>
          <dt>Birth date</dt>
          <dd>{data.person.birth_date || "Not given"}</dd>
          <dt>E-mail</dt>
          <dd>{data.person.email || "Not given"}</dd>
          <dt>Language</dt>
          <dd>{data.person.lang === "fr" ? "French" : "English"}</dd>
        </dl>
      )}
      <h2>History</h2>
      <HistoryTable rows={data.history} empty="No changes recorded yet." />
    </main>
  );
}

export const ErrorBoundary = () => (
  <ErrorPage
    page
    forbidden="Members are changed by the club's Organization Admin and System Administrators with the divisions flag."
    notFound="There is no such member in this division."
    back={{ to: "/manage", label: "Manage" }}
  />
);
