import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { SavedNotice, SelectField, SetupForm, TextField, useReplyFor } from "../../components/form-kit";
import { ErrorPage, PASS_ERRORS } from "../../components/error-page";
import { pageQuery, readPostedForm, unknownIntent } from "../../forms/posted-form.server";
import { issuePassByHand, passListData, requirePassAccess, revokePassByHand, sendCardAgainByHand } from "../../passes.server";

export const meta: MetaFunction = () => [{ title: "Passes & Member Cards" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const access = await requirePassAccess(request, context, params.club ?? "", "administer");
  const query = pageQuery(request);
  const revoking = new URL(request.url).searchParams.get("revoke");
  const list = await passListData(context, access);
  return {
    clubId: access.club.id,
    passes: list,
    saved: query.saved,
    revoking: list.find((p) => p.id === revoking && p.state !== "Revoked") ?? null,
    // One id per opened form: a double click on Issue issues one card, on Send the card again sends one mail.
    submission: crypto.randomUUID(),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const access = await requirePassAccess(request, context, params.club ?? "", "administer");
  const posted = await readPostedForm(request);
  if (posted.intent === "issue") return issuePassByHand(context, access, posted);
  if (posted.intent === "revoke") return revokePassByHand(context, access, posted);
  if (posted.intent === "send") return sendCardAgainByHand(context, access, posted);
  return unknownIntent(posted);
}

export const ErrorBoundary = () => <ErrorPage page {...PASS_ERRORS} />;

const LANGUAGES = [
  { value: "en", label: "English" },
  { value: "fr", label: "French" },
];

/** The card's mail and, for a card with an address that is not revoked, "Send the card again". */
function MailCell({ pass, submission }: { pass: { id: string; mail: string; email: string; state: string }; submission: string }) {
  const reply = useReplyFor("send", pass.id);
  return (
    <td>
      {pass.mail}
      {pass.email && pass.state !== "Revoked" ? (
        <SetupForm intent="send" target={pass.id} label="Send the card again" busyLabel="Sending…" errors={reply.errors} inline>
          <input type="hidden" name="pass" value={pass.id} />
          <input type="hidden" name="submission" value={submission} />
        </SetupForm>
      ) : null}
    </td>
  );
}

const KINDS = [
  { value: "pass", label: "Season pass" },
  { value: "member_card", label: "Member card" },
];

export default function Passes() {
  const data = useLoaderData<typeof loader>();
  const issue = useReplyFor("issue");
  const revoke = useReplyFor("revoke", data.revoking?.id ?? null);
  return (
    <main className="page">
      <p>
        <Link to={`/club/${data.clubId}/overview`}>← Club overview</Link> · <Link to={`/club/${data.clubId}/checkin`}>Check-in</Link>
      </p>
      <h1>Passes &amp; Member Cards</h1>
      <SavedNotice message={data.saved} />
      {data.revoking ? (
        <section aria-label="Revoke a card">
          <h2>
            Revoke card {data.revoking.number} of {data.revoking.holder}
          </h2>
          <p>A revoked card shows Revoked at check-in and on the card itself. This cannot be undone; issue a new card instead.</p>
          <SetupForm intent="revoke" target={data.revoking.id} label="Revoke the card" busyLabel="Revoking…" errors={revoke.errors} danger>
            <input type="hidden" name="pass" value={data.revoking.id} />
            <TextField name="reason" label="Reason" error={revoke.errors.reason} defaultValue={revoke.values?.reason} required maxLength={300} />
          </SetupForm>
          <p>
            <Link to={`/club/${data.clubId}/passes`}>Cancel</Link>
          </p>
        </section>
      ) : null}
      {data.passes.length === 0 ? (
        <p className="empty-state">No card yet. Members get theirs when their membership is recorded; issue one by hand below.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Number</th>
                <th scope="col">Holder</th>
                <th scope="col">Card</th>
                <th scope="col">Season</th>
                <th scope="col">Valid</th>
                <th scope="col">Status</th>
                <th scope="col">Mail</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.passes.map((p) => (
                <tr key={p.id}>
                  <td>{p.number}</td>
                  <td>
                    <a href={p.card}>{p.holder}</a>
                  </td>
                  <td>{p.kind}</td>
                  <td>{p.season}</td>
                  <td>{p.valid}</td>
                  <td>{p.reason ? `${p.state}: ${p.reason}` : p.state}</td>
                  <MailCell pass={p} submission={data.submission} />
                  <td>{p.state === "Revoked" ? null : <Link to={`?revoke=${p.id}`}>Revoke…</Link>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Issue a card by hand</h2>
      <SetupForm intent="issue" label="Issue the card" busyLabel="Issuing…" errors={issue.errors}>
        <input type="hidden" name="submission" value={data.submission} />
        <SelectField name="kind" label="Card" choices={KINDS} defaultValue={issue.values?.kind ?? "member_card"} error={issue.errors.kind} />
        <TextField name="holder_name" label="Holder" error={issue.errors.holder_name} defaultValue={issue.values?.holder_name} required maxLength={200} />
        <TextField
          name="holder_email"
          label="Holder's email (optional)"
          error={issue.errors.holder_email}
          defaultValue={issue.values?.holder_email}
          maxLength={254}
        />
        <SelectField name="lang" label="Holder's language" choices={LANGUAGES} defaultValue={issue.values?.lang ?? "en"} error={issue.errors.lang} />
        <TextField name="season" label="Season" error={issue.errors.season} defaultValue={issue.values?.season} required maxLength={50} />
        <TextField name="valid_from" label="Valid from" type="date" error={issue.errors.valid_from} defaultValue={issue.values?.valid_from} required />
        <TextField name="valid_until" label="Valid until" type="date" error={issue.errors.valid_until} defaultValue={issue.values?.valid_until} required />
      </SetupForm>
    </main>
  );
}
