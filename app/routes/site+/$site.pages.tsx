import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { createPage, pageListData, requireSitePages } from "../../admin/site-pages.server";
import { ErrorPage } from "../../components/error-page";
import { SavedNotice, SetupForm, TextField, useReplyFor } from "../../components/form-kit";
import { pageQuery, readPostedForm, unknownIntent } from "../../forms/posted-form.server";

export const meta: MetaFunction = () => [{ title: "Pages · Site Settings" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const access = await requireSitePages(request, context, params.site ?? "");
  return {
    ...(await pageListData(access)),
    siteId: access.siteId,
    name: access.target.name,
    saved: pageQuery(request).saved,
    // A new id per page view: the create form sent twice (a double click) makes one page.
    submission: crypto.randomUUID(),
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const access = await requireSitePages(request, context, params.site ?? "");
  const posted = await readPostedForm(request);
  return posted.intent === "create" ? createPage(access, posted) : unknownIntent(posted);
}

export default function SitePages() {
  const data = useLoaderData<typeof loader>();
  const reply = useReplyFor("create");
  return (
    <main className="page">
      <p>
        <Link to={`/site/${data.siteId}/settings`}>← {data.name}</Link>
      </p>
      <h1>Pages</h1>
      <SavedNotice message={data.saved} />
      <p className="hint">{`The club's own pages on ${data.hostname}, such as About the club. Add one to the menu in the site settings.`}</p>
      {data.pages.length === 0 ? <p className="empty-state">No pages yet.</p> : null}
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Address</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {data.pages.map((page) => (
            <tr key={page.id}>
              <td>
                <Link to={page.id}>{page.title}</Link>
              </td>
              <td>
                <code>{page.path}</code>
              </td>
              <td>{page.isPublished ? "Published" : "Draft"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>New page</h2>
      <SetupForm intent="create" label="Create the page" busyLabel="Creating…" errors={reply.errors}>
        <input type="hidden" name="submission" value={data.submission} />
        <TextField name="title" label="Title" maxLength={200} defaultValue={reply.values?.title} error={reply.errors.title} required />
        <TextField
          name="path"
          label="Address"
          hint="Where the page lives on the site, such as /about"
          maxLength={200}
          defaultValue={reply.values?.path}
          error={reply.errors.path}
          required
        />
      </SetupForm>
    </main>
  );
}

export const ErrorBoundary = () => (
  <ErrorPage
    page
    forbidden="This page is for the site's Site Administrators, and System Administrators with the sites flag."
    notFound="There is no such site."
    back={{ to: "/manage", label: "Manage" }}
  />
);
