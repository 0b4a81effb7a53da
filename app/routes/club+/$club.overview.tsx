import type { MetaFunction } from "@remix-run/cloudflare";
import { RolePage } from "../../components/role-page";
import { can } from "../../../core/access/policy";
import { rolePageLoader } from "../../role-pages.server";

export const meta: MetaFunction = () => [{ title: "Organization Overview" }];
export const loader = rolePageLoader("Organization Overview", "clubs", (principal, params) => {
  const club = { clubId: params.club ?? null };
  const tools = [];
  if (can(principal, "view", { area: "registrations", ...club })) tools.push({ href: "/club/registrations", label: "Registration forms" });
  if (can(principal, "view", { area: "races", ...club })) tools.push({ href: "/club/races", label: "Races" });
  if (can(principal, "finance", { area: "transactions", ...club }))
    tools.push({ href: `/club/finance?club=${params.club}`, label: "Finance: transactions, refunds, payouts and bank accounts" });
  return tools;
});
export default RolePage;
