import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { findAdminArea } from "../../../core/access/admin-areas";
import { can } from "../../../core/access/policy";
import { requireSession, rolesOf } from "../../auth.server";
import { ErrorPage } from "../../components/error-page";

/**
 * An area of the super-admin host, open only to System Administrators whose configuration includes it (spec
 * section 6). Its tools arrive with issue 25; until then the page says what the area is.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const area = context.tenant.kind === "admin" ? findAdminArea(params.area ?? "") : null;
  if (!area) throw new Response("Not found", { status: 404 });
  const session = requireSession(request, context);
  const principal = { userId: session.user.id, roles: await rolesOf(context, session.user.id), activeRoleId: session.activeRoleId };
  if (!can(principal, "administer", { area: area.key })) throw new Response("Forbidden", { status: 403 });
  return { key: area.key, label: area.label };
}

export const ErrorBoundary = () => (
  <ErrorPage
    page
    forbidden="This area is open to System Administrators whose configuration includes it. Ask a System Administrator to add it to your role."
    back={{ to: "/_admin", label: "Administration" }}
  />
);

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.label} · Administration` : "Administration" }];

export default function AdminArea() {
  const area = useLoaderData<typeof loader>();
  return (
    <main className="page">
      <p>
        <a href="/">← Administration</a>
      </p>
      <h1>{area.label}</h1>
      <p>
        Open to System Administrators whose configuration includes <code>{area.key}</code>. Its lists and forms are not built yet.
      </p>
    </main>
  );
}
