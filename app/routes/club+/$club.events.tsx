import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { createEventPage, eventListData, requireEventPages } from "../../admin/club-events.server";
import { EVENT_PAGE_ERRORS, ErrorPage } from "../../components/error-page";
import { SavedNotice, SetupForm, TextField, useReplyFor } from "../../components/form-kit";
import { pageQuery, readPostedForm, unknownIntent } from "../../forms/posted-form.server";
import { ClubPage } from "../../components/club-page";

export const meta: MetaFunction = () => [{ title: "Event pages" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const access = await requireEventPages(request, context, params.club ?? "");
  // One id per opened form: sending it twice (a double click, a resent form) makes one event page.
  return { clubId: access.clubId, events: await eventListData(access), saved: pageQuery(request).saved, submission: crypto.randomUUID() };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const access = await requireEventPages(request, context, params.club ?? "");
  const posted = await readPostedForm(request);
  if (posted.intent !== "create") return unknownIntent(posted);
  return createEventPage(access, posted);
}

export const ErrorBoundary = () => <ErrorPage page {...EVENT_PAGE_ERRORS} />;

export default function EventPages() {
  const data = useLoaderData<typeof loader>();
  const reply = useReplyFor("create");
  return (
    <ClubPage clubId={data.clubId} title="Event pages">
      <SavedNotice message={data.saved} />
      {data.events.length === 0 ? (
        <p className="empty-state">No event page yet. Start one below: it stays a draft until you make it public.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Starts</th>
                <th scope="col">Address</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {data.events.map((e) => (
                <tr key={e.id}>
                  <td>
                    <Link to={`/club/${data.clubId}/events/${e.id}`}>{e.title}</Link>
                  </td>
                  <td>{e.start ?? "Dates to be announced"}</td>
                  <td>{e.path ? <code>/events/{e.path}</code> : "—"}</td>
                  <td>{e.state}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>New event page</h2>
      <SetupForm intent="create" label="Start the event page" busyLabel="Starting…" errors={reply.errors}>
        <input type="hidden" name="submission" value={data.submission} />
        <TextField name="name" label="Event name" error={reply.errors.name} defaultValue={reply.values?.name} required maxLength={200} />
      </SetupForm>
    </ClubPage>
  );
}
