import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { AdminAreaKey } from "../core/access/admin-areas";
import { can, effectiveRoles, type Principal } from "../core/access/policy";
import { roleAdminPage, roleHomePage, roleLabel } from "../core/access/roles";
import { requireSession, rolesOf } from "./auth.server";

/**
 * A role home page of platform.md section 2 whose tools arrive with later issues. It is open to the roles
 * whose home or admin page it is, and to System Administrators whose flags cover `area`; it says what it
 * is and who may see it.
 */
/** A tool a role page links to, when the principal may use it. */
export interface RolePageTool {
  href: string;
  label: string;
}

/** Whether a principal whose roles do not name this page as their home may still open it (the club's admin on a form's overview). */
export type MayOpen = (principal: Principal, params: Record<string, string | undefined>, context: LoaderFunctionArgs["context"]) => boolean | Promise<boolean>;

export function rolePageLoader(
  title: string,
  area: AdminAreaKey,
  toolsFor: (
    principal: Principal,
    params: Record<string, string | undefined>,
    context: LoaderFunctionArgs["context"],
  ) => RolePageTool[] | Promise<RolePageTool[]> = () => [],
  mayOpen: MayOpen = () => false,
) {
  return async ({ request, context, params }: LoaderFunctionArgs) => {
    const session = requireSession(request, context);
    const roles = await rolesOf(context, session.user.id);
    const principal = { userId: session.user.id, roles, activeRoleId: session.activeRoleId };
    const path = new URL(request.url).pathname;
    const owners = effectiveRoles(principal).filter((r) => roleHomePage(r).href === path || roleAdminPage(r)?.href === path);
    const superAdmin = effectiveRoles(principal).some((r) => r.type === "system_admin") && can(principal, "administer", { area });
    if (owners.length === 0 && !superAdmin && !(await mayOpen(principal, params, context))) throw new Response("Forbidden", { status: 403 });
    const who = [...new Set(owners.map((r) => roleLabel(r.type)))];
    if (superAdmin) who.push(`System Administrators with the ${area} flag`);
    return { title, who, tools: await toolsFor(principal, params, context) };
  };
}
