import type { MetaFunction } from "@remix-run/cloudflare";
import { RolePage } from "../components/role-page";
import { rolePageLoader } from "../role-pages.server";

export const meta: MetaFunction = () => [{ title: "Organization Overview" }];
export const loader = rolePageLoader("Organization Overview", "clubs");
export default RolePage;
