import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { roleDefinition, roleHomePage } from "../../../core/access/roles";
import { openDb } from "../../../schema/d1";
import { mayManageApps } from "../../../workers/services/apps";
import { creatableRaceClubs } from "../../../workers/services/race-setup";
import { requireSession, rolesOf } from "../../auth.server";

export const meta: MetaFunction = () => [{ title: "Manage" }];

/** The manager area: the signed-in user's roles, each with its home page and a switch to it. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireSession(request, context);
  const roles = await rolesOf(context, session.user.id);
  const principal = { userId: session.user.id, roles, activeRoleId: session.activeRoleId };
  return {
    user: session.user,
    activeRoleId: session.activeRoleId,
    mayManageApps: mayManageApps(principal),
    mayCreateRaces: (await creatableRaceClubs(openDb(context.env.DB), principal, context.tenant)).length > 0,
    roles: roles.map((role) => {
      const definition = roleDefinition(role.type);
      const home = roleHomePage(role);
      // The administration lives on its own host: its pages are reached through a switch that signs in there.
      const elsewhere = role.type === "system_admin" && context.tenant.kind !== "admin" ? `&domain=${encodeURIComponent(context.env.ADMIN_HOST)}` : "";
      const switchHref = `/login/switch?role=${role.id}&goto=${encodeURIComponent(home.href)}${elsewhere}`;
      return {
        id: role.id,
        label: definition.label,
        description: definition.description,
        home: elsewhere ? { ...home, href: switchHref } : home,
        switchHref,
      };
    }),
  };
}

export default function Manage() {
  const { user, roles, activeRoleId, mayManageApps: showApps, mayCreateRaces } = useLoaderData<typeof loader>();
  const active = roles.find((r) => r.id === activeRoleId);
  return (
    <main className="page">
      <h1>Hello, {user.name}</h1>
      <p>
        {active ? (
          <>
            You are working as <strong>{active.label}</strong>.{" "}
          </>
        ) : null}
        <Link to="/manage/security">Password and two-factor</Link> · <Link to="/login/managePasskey">Passkeys</Link> ·{" "}
        <Link to="/manage/connected">Connected apps</Link> ·{" "}
        {showApps ? (
          <>
            <Link to="/manage/apps">Applications</Link> ·{" "}
          </>
        ) : null}
        {mayCreateRaces ? (
          <>
            <Link to="/race/new">Create a race</Link> ·{" "}
          </>
        ) : null}
        <Link to="/club/new">Start a club</Link> · <Link to="/login/logout">Sign out</Link>
      </p>
      <h2>Your roles</h2>
      {roles.length === 0 ? (
        <p className="empty-state">
          You have no roles yet. An organisation administrator can give you one, or you can <Link to="/club/new">start your club</Link>.
        </p>
      ) : (
        <ul className="race-list">
          {roles.map((role) => (
            <li key={role.id} className="race-card">
              <Link to={role.home.href} className="race-name">
                {role.label}
              </Link>
              <span className="race-meta">
                {role.description ? `${role.description} · ` : null}
                {role.home.title}
              </span>
              {role.id === activeRoleId ? <strong>Active role</strong> : <Link to={role.switchHref}>Switch to this role</Link>}
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
