import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { openDb } from "../../../schema/d1";
import { creatableClubs, listManageableApps, mayCreateApps, mayManageApps } from "../../../workers/services/apps";
import { requireSession, rolesOf } from "../../auth.server";
import { ErrorPage, APPS_ERRORS } from "../../components/error-page";

export const meta: MetaFunction = () => [{ title: "Applications" }];

/** The apps this user may manage on this host: those of its clubs (or all, for an API Client Admin without a club). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireSession(request, context);
  const principal = { userId: session.user.id, roles: await rolesOf(context, session.user.id), activeRoleId: session.activeRoleId };
  if (!mayManageApps(principal)) throw data("Forbidden", { status: 403 });
  const db = openDb(context.env.DB);
  const [{ apps, total }, choices] = await Promise.all([listManageableApps(db, principal, context.tenant), creatableClubs(db, principal, context.tenant)]);
  const deleted = new URL(request.url).searchParams.get("deleted");
  return { apps, total, mayCreate: mayCreateApps(choices), deleted: deleted ? deleted.slice(0, 200) : null };
}

const dateFormat = new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

export default function Applications() {
  const { apps, total, mayCreate, deleted } = useLoaderData<typeof loader>();
  const createButton = mayCreate ? (
    <Link to="/manage/apps/new" className="button">
      Create an application
    </Link>
  ) : null;
  return (
    <main className="page">
      <p>
        <Link to="/manage">← Manage</Link>
      </p>
      <h1>Applications</h1>
      {deleted ? (
        <p className="form-notice" role="status">
          {`Deleted “${deleted}” and every token it held.`}
        </p>
      ) : null}
      <p>Third-party applications that act for users with the permissions they approve.</p>
      {apps.length === 0 ? (
        <>
          <p className="empty-state">No applications yet.</p>
          {createButton}
        </>
      ) : (
        <>
          <p className="actions">{createButton}</p>
          <div style={{ overflowX: "auto" }}>
            <table className="data-table">
              <caption className="visually-hidden">Your applications</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Redirect URIs</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {apps.map((app) => (
                  <tr key={app.id}>
                    <td>
                      <Link to={`/manage/apps/${app.id}`}>{app.name}</Link>
                      {app.isSystem ? <> (system)</> : null}
                      {app.description ? <span className="race-meta">{app.description}</span> : null}
                      {app.clubName ? <span className="race-meta">{app.clubName}</span> : null}
                    </td>
                    <td>{app.isPublic ? "Public" : "Confidential"}</td>
                    <td>{app.scopes.length > 0 ? app.scopes.join(", ") : <span className="empty-state">none</span>}</td>
                    <td>
                      {app.redirectUris.map((uri) => (
                        <span key={uri} className="race-meta" style={{ wordBreak: "break-all" }}>
                          {uri}
                        </span>
                      ))}
                    </td>
                    <td>
                      <time dateTime={new Date(app.createdAt).toISOString()}>{dateFormat.format(app.createdAt)}</time>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {total > apps.length ? (
            <p>
              Showing the newest {apps.length} of {total} applications.
            </p>
          ) : null}
        </>
      )}
    </main>
  );
}

export const ErrorBoundary = () => <ErrorPage page {...APPS_ERRORS} />;
