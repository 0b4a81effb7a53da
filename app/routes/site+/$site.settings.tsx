import type { MetaFunction } from "@remix-run/cloudflare";
import { RolePage } from "../../components/role-page";
import { rolePageLoader } from "../../role-pages.server";

export const meta: MetaFunction = () => [{ title: "Site Settings" }];
export const loader = rolePageLoader("Site Settings", "sites");
export default RolePage;
