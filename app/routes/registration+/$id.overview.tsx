import type { MetaFunction } from "@remix-run/cloudflare";
import { RolePage } from "../../components/role-page";
import { can } from "../../../core/access/policy";
import { rolePageLoader } from "../../role-pages.server";

export const meta: MetaFunction = () => [{ title: "Registration Form Overview" }];
export const loader = rolePageLoader("Registration Form Overview", "registrations", (principal, params) => {
  // The role's own form: its roles carry the form id as scope, so the check needs no club.
  const form = { area: "registrations" as const, id: params.id, registrationId: params.id };
  const tools = [];
  if (can(principal, "view", form)) tools.push({ href: `/registration/${params.id}/admin`, label: "The form and its fields" });
  if (can(principal, "finance", form)) tools.push({ href: `/registration/${params.id}/admin/payments`, label: "Payments and refunds" });
  if (can(principal, "view_reports", form)) tools.push({ href: `/registration/${params.id}/reports`, label: "Reports" });
  return tools;
});
export default RolePage;
