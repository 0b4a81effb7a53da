import type { MetaFunction } from "@remix-run/cloudflare";
import { RolePage } from "../../components/role-page";
import { rolePageLoader } from "../../role-pages.server";

export const meta: MetaFunction = () => [{ title: "Membership Reports" }];
export const loader = rolePageLoader("Membership Reports", "divisions");
export default RolePage;
