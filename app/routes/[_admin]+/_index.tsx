import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { adminAreaHref, adminAreas } from "../../../core/access/admin-areas";
import { mayOpenAdminArea } from "../../../core/access/policy";
import { requireSession, rolesOf } from "../../auth.server";

export const meta: MetaFunction = () => [{ title: "System administration" }];

/** The super-admin home: the areas this administrator's configuration opens. Only on the admin host. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (context.tenant.kind !== "admin") throw new Response("Not found", { status: 404 });
  const session = requireSession(request, context);
  const principal = { userId: session.user.id, roles: await rolesOf(context, session.user.id), activeRoleId: session.activeRoleId };
  const areas = adminAreas.filter((area) => mayOpenAdminArea(principal, area.key));
  if (areas.length === 0) throw new Response("Forbidden", { status: 403 });
  return { areas: areas.map((a) => ({ key: a.key, label: a.label, href: adminAreaHref(a.key) })) };
}

export default function AdminHome() {
  const { areas } = useLoaderData<typeof loader>();
  return (
    <main className="page">
      <h1>System administration</h1>
      <nav aria-label="Administration areas">
        <ul className="area-grid">
          {areas.map((area) => (
            <li key={area.key}>
              <Link to={area.href}>{area.label}</Link>
            </li>
          ))}
        </ul>
      </nav>
    </main>
  );
}
