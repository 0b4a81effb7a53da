import type { MetaFunction } from "@remix-run/cloudflare";
import { RolePage } from "../../components/role-page";
import { can } from "../../../core/access/policy";
import { openDb } from "../../../schema/d1";
import { clubOverview } from "../../../workers/services/club-admin";
import { rolePageLoader, type RolePageTool } from "../../role-pages.server";

export const meta: MetaFunction = () => [{ title: "Organization Overview" }];

/**
 * The club's home. A club that has just started is guided first: a bank account for its payouts, its first
 * form, its first race, each shown until it is done; then the tools its roles may use.
 */
export const loader = rolePageLoader("Organization Overview", "clubs", async (principal, params, context) => {
  const clubId = params.club ?? "";
  const club = { clubId };
  const tools: RolePageTool[] = [];
  if (can(principal, "administer", { area: "clubs", ...club })) {
    const overview = await clubOverview(openDb(context.env.DB), clubId);
    const waiting = overview.requests.some((r) => r.state === "waiting");
    if (overview.bankAccounts.length === 0)
      tools.push({
        href: `/club/finance?club=${clubId}`,
        label: waiting ? "Getting started: your bank account is waiting for approval" : "Getting started: add a bank account so payouts can reach the club",
      });
    if (overview.forms === 0) tools.push({ href: "/club/registrations", label: "Getting started: create your first registration form" });
    if (overview.races === 0) tools.push({ href: "/club/races", label: "Getting started: set up your first race" });
    tools.push({ href: `/club/${clubId}/admin`, label: "Club settings, people and history" });
  }
  if (can(principal, "view", { area: "registrations", ...club })) tools.push({ href: "/club/registrations", label: "Registration forms" });
  if (can(principal, "view", { area: "races", ...club })) tools.push({ href: "/club/races", label: "Races" });
  if (can(principal, "administer", { area: "eventpages", ...club })) tools.push({ href: `/club/${clubId}/events`, label: "Event pages" });
  if (can(principal, "administer", { area: "emails", ...club })) tools.push({ href: `/club/${clubId}/newsletters`, label: "Newsletters" });
  if (can(principal, "view", { area: "rankingschemes", ...club })) tools.push({ href: `/club/${clubId}/rankings`, label: "Ranking lists" });
  if (can(principal, "administer", { area: "passes", ...club })) tools.push({ href: `/club/${clubId}/passes`, label: "Passes & Member Cards" });
  if (can(principal, "create", { area: "servers", ...club })) tools.push({ href: `/club/${clubId}/servers`, label: "Timing servers" });
  if (can(principal, "view", { area: "passes", ...club })) tools.push({ href: `/club/${clubId}/checkin`, label: "Check-in" });
  if (can(principal, "finance", { area: "transactions", ...club }))
    tools.push({ href: `/club/finance?club=${clubId}`, label: "Finance: transactions, refunds, payouts and bank accounts" });
  return tools;
});
export default RolePage;
