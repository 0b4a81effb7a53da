import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { createNewsletter, newsletterListData, requireNewsletterAccess } from "../../admin/newsletters.server";
import { SetupForm, TextField, useReplyFor } from "../../components/form-kit";
import { NEWSLETTER_ERRORS, ErrorPage } from "../../components/error-page";
import { readPostedForm, unknownIntent } from "../../forms/posted-form.server";
import { ClubPage } from "../../components/club-page";

export const meta: MetaFunction = () => [{ title: "Newsletters" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const access = await requireNewsletterAccess(request, context, params.club ?? "");
  // One id per opened form: sending it twice (a double click, a resent form) makes one newsletter.
  return { clubId: access.clubId, newsletters: await newsletterListData(access), submission: crypto.randomUUID() };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const access = await requireNewsletterAccess(request, context, params.club ?? "");
  const posted = await readPostedForm(request);
  if (posted.intent !== "create") return unknownIntent(posted);
  return createNewsletter(access, posted);
}

export const ErrorBoundary = () => <ErrorPage page {...NEWSLETTER_ERRORS} />;

export default function Newsletters() {
  const data = useLoaderData<typeof loader>();
  const reply = useReplyFor("create");
  return (
    <ClubPage clubId={data.clubId} title="Newsletters">
      {data.newsletters.length === 0 ? (
        <p className="empty-state">No newsletter yet. Start one below: it goes to nobody until you send it.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Subject</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {data.newsletters.map((n) => (
                <tr key={n.id}>
                  <td>
                    <Link to={`/club/${data.clubId}/newsletters/${n.id}`}>{n.subject}</Link>
                  </td>
                  <td>{n.state}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>New newsletter</h2>
      <SetupForm intent="create" label="Start the newsletter" busyLabel="Starting…" errors={reply.errors}>
        <input type="hidden" name="submission" value={data.submission} />
        <TextField name="subject" label="Subject" error={reply.errors.subject} defaultValue={reply.values?.subject} required maxLength={200} />
      </SetupForm>
    </ClubPage>
  );
}
