import type { AppLoadContext, MetaFunction } from "@remix-run/cloudflare";
import { RolePage } from "../../components/role-page";
import type { Principal } from "../../../core/access/policy";
import { openDb } from "../../../schema/d1";
import { canOnRegistration, getRegistration } from "../../../workers/services/registration-forms";
import { rolePageLoader } from "../../role-pages.server";

export const meta: MetaFunction = () => [{ title: "Registration Form Overview" }];

const formOf = (params: Record<string, string | undefined>, context: AppLoadContext) =>
  params.id ? getRegistration(openDb(context.env.DB), context.tenant, params.id) : Promise.resolve(null);

// The form's own roles have this as their home page; its club's and site's roles (the club's Organization
// Admin, All Registrations) may open it too. Each tool is listed only to those who may use it.
export const loader = rolePageLoader(
  "Registration Form Overview",
  "registrations",
  async (principal, params, context) => {
    const form = await formOf(params, context);
    if (!form) return [];
    const tools = [];
    if (canOnRegistration(principal, "view", form)) tools.push({ href: `/registration/${form.id}/admin`, label: "The form and its fields" });
    if (canOnRegistration(principal, "finance", form)) tools.push({ href: `/registration/${form.id}/admin/payments`, label: "Payments and refunds" });
    if (canOnRegistration(principal, "view_reports", form)) tools.push({ href: `/registration/${form.id}/reports`, label: "Reports" });
    return tools;
  },
  async (principal: Principal, params, context) => {
    const form = await formOf(params, context);
    return form !== null && canOnRegistration(principal, "view", form);
  },
);
export default RolePage;
