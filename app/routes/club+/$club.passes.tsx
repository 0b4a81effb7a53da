import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { SavedNotice, SelectField, SetupForm, TextField, useReplyFor } from "../../components/form-kit";
import { ErrorPage, PASS_ERRORS } from "../../components/error-page";
import { pageQuery, readPostedForm, unknownIntent } from "../../forms/posted-form.server";
import { issuePassByHand, passListData, requirePassAccess, revokePassByHand, sendCardAgainByHand } from "../../passes.server";
import { ClubPage } from "../../components/club-page";
import { SetupTable } from "../../components/setup-table";

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
    <>
      {pass.mail}
      {pass.email && pass.state !== "Revoked" ? (
        <SetupForm intent="send" target={pass.id} label="Send the card again" busyLabel="Sending…" errors={reply.errors} inline>
          <input type="hidden" name="pass" value={pass.id} />
          <input type="hidden" name="submission" value={submission} />
        </SetupForm>
      ) : null}
    </>
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
    <ClubPage
      clubId={data.clubId}
      title="Passes & Member Cards"
      links={
        <>
          {" "}
          · <Link to={`/club/${data.clubId}/checkin`}>Check-in</Link>
        </>
      }
    >
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
      <SetupTable
        items={data.passes}
        keyOf={(p) => p.id}
        empty="No card yet. Members get theirs when their membership is recorded; issue one by hand below."
        columns={[
          { header: "Number", cell: (p) => p.number },
          { header: "Holder", cell: (p) => <a href={p.card}>{p.holder}</a> },
          { header: "Card", cell: (p) => p.kind },
          { header: "Season", cell: (p) => p.season },
          { header: "Valid", cell: (p) => p.valid },
          { header: "Status", cell: (p) => (p.reason ? `${p.state}: ${p.reason}` : p.state) },
          { header: "Mail", cell: (p) => <MailCell pass={p} submission={data.submission} /> },
        ]}
        actions={(p) => (p.state === "Revoked" ? null : <Link to={`?revoke=${p.id}`}>Revoke…</Link>)}
      />
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
    </ClubPage>
  );
}
