import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { Club } from "../../../schema/entities/classes";
import { clubOverview } from "../../../workers/services/club-admin";
import { historyOf } from "../../../workers/services/entity-history";
import { requireClubAdmin } from "../../admin/club-admin.server";
import { cardPaymentsData, startOnboardingAction } from "../../admin/stripe-connect.server";
import { CardPaymentsSection, CONNECT_INTENT } from "../../components/card-payments";
import { historyRowsOf } from "../../admin/entity-admin.server";
import { formFieldsOf, readBackInputs, saveEntityForm } from "../../admin/entity-form.server";
import { EntityForm, HistoryTable } from "../../admin/entity-views";
import { SavedNotice, useReplyFor } from "../../components/form-kit";
import { CLUB_ADMIN_ERRORS, ErrorPage } from "../../components/error-page";
import { pageQuery, readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import { peopleAction, peopleData } from "../../admin/people.server";
import { PeoplePanel } from "../../components/people-panel";
import { ClubPage } from "../../components/club-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.name} · Organization Admin` : "Organization Admin" }];

// The place and the site are set by their own flows (the data API's place call, the site settings).
const SETTINGS = ["name", "sport", "country", "email", "website", "logo", "info", "public_url", "tax_number", "qst_number"];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { db, stored, target } = await requireClubAdmin(request, context, params.club ?? "");
  const clubId = stored.row.uuid;
  // The tax number is printed on receipts as "GST/HST no." (decision 0058); its label says which number.
  const fields = formFieldsOf(Club, stored.row, () => null)
    .filter((f) => SETTINGS.includes(f.api))
    .map((f) => (f.api === "tax_number" ? { ...f, label: "GST/HST number" } : f.api === "qst_number" ? { ...f, label: "QST number (Quebec)" } : f));
  const history = await historyOf(db, Club, clubId);
  return {
    id: clubId,
    name: String(stored.row.name),
    fields,
    readBack: readBackInputs(stored),
    overview: await clubOverview(db, clubId),
    cardPayments: await cardPaymentsData(context, db, String(clubId)),
    people: await peopleData(db, target, request, context.now),
    notice: pageQuery(request).saved,
    history: historyRowsOf(history),
    saved: new URL(request.url).searchParams.get("saved") === "1" ? "Club settings saved." : null,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { db, entityContext, caller, stored, principal, session, target } = await requireClubAdmin(request, context, params.club ?? "");
  const posted = await readPostedForm(request);
  const user = { id: session.user.id, name: session.user.name };
  const people = await peopleAction(context.env, db, principal, user, target, posted, `/club/${target.id}/admin`, context.now);
  if (people) return people;
  if (posted.intent === CONNECT_INTENT) return startOnboardingAction(context, db, String(stored.row.uuid), posted);
  if (posted.intent !== "save") return unknownIntent(posted);
  // Only the settings this page shows may change here, whatever else a crafted form sends.
  const values = Object.fromEntries(Object.entries(posted.values).filter(([key]) => SETTINGS.includes(key) || key === "original" || key === "mtimes"));
  const saved = await saveEntityForm(entityContext, caller, Club, stored, values);
  if (!saved.ok) return refuse(posted, saved.errors, saved.status);
  return redirect(`/club/${stored.row.uuid}/admin?saved=1`);
}

export const ErrorBoundary = () => <ErrorPage page {...CLUB_ADMIN_ERRORS} />;

export default function ClubAdmin() {
  const data = useLoaderData<typeof loader>();
  const reply = useReplyFor("save");
  const { overview } = data;
  return (
    <ClubPage clubId={data.id} title={data.name}>
      <SavedNotice message={data.saved ?? data.notice} />
      <nav aria-label="Club tools">
        <ul className="plain-list">
          <li>
            <Link to="/club/registrations">Registration forms ({overview.forms})</Link>
          </li>
          <li>
            <Link to="/club/races">Races ({overview.races})</Link>
          </li>
          <li>
            <Link to={`/club/finance?club=${data.id}`}>Finance: transactions, refunds, payouts and bank accounts</Link>
          </li>
          <li>
            <Link to={`/club/${data.id}/events`}>Event pages</Link>
          </li>
          <li>
            <Link to={`/club/${data.id}/newsletters`}>Newsletters</Link>
          </li>
          <li>
            <Link to={`/club/${data.id}/activities`}>Activities</Link>
          </li>
          <li>
            <Link to={`/club/${data.id}/servers`}>Timing servers</Link>
          </li>
        </ul>
      </nav>
      <h2>Club settings</h2>
      <EntityForm
        intent="save"
        fields={data.fields}
        errors={reply.errors}
        typed={reply.values}
        labels={{}}
        hidden={data.readBack}
        label="Save settings"
        busyLabel="Saving…"
      />
      <PeoplePanel data={data.people} />
      <h3>Every role in this club, on its forms and races too</h3>
      {overview.people.length === 0 ? (
        <p className="empty-state">Nobody holds a role in this club yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
              </tr>
            </thead>
            <tbody>
              {overview.people.map((p) => (
                <tr key={p.roleId}>
                  <td>{p.name}</td>
                  <td>{p.email}</td>
                  <td>{p.role}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="hint">Roles on one race or one registration form are given on that race's or form's People page.</p>
      <CardPaymentsSection data={data.cardPayments} />
      <h2>Bank accounts</h2>
      {overview.bankAccounts.length === 0 ? (
        <p className="empty-state">No bank account yet: payouts wait until one is approved.</p>
      ) : (
        <ul className="plain-list">
          {overview.bankAccounts.map((a) => (
            <li key={a.id}>{`${a.name} ····${a.last4} (${a.kind === "merchant" ? "merchant account" : "payouts"})`}</li>
          ))}
        </ul>
      )}
      {overview.requests.length > 0 ? (
        <ul className="plain-list">
          {overview.requests.map((r) => (
            <li key={r.id}>{`Request for ${r.name} ····${r.last4}, ${new Date(r.at).toISOString().slice(0, 10)}: ${r.state}`}</li>
          ))}
        </ul>
      ) : null}
      <p>
        <Link to={`/club/finance?club=${data.id}`}>Add a bank account on the Finance page</Link>
      </p>
      <h2>History of the club's settings</h2>
      <HistoryTable rows={data.history} />
    </ClubPage>
  );
}
