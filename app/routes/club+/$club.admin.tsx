import type { MetaFunction } from "@remix-run/cloudflare";
import { RolePage } from "../../components/role-page";
import { rolePageLoader } from "../../role-pages.server";

export const meta: MetaFunction = () => [{ title: "Organization Admin" }];
export const loader = rolePageLoader("Organization Admin", "clubs");
export default RolePage;
