import type { MetaFunction } from "@remix-run/cloudflare";
import { RolePage } from "../components/role-page";
import { rolePageLoader } from "../role-pages.server";

export const meta: MetaFunction = () => [{ title: "Race Admin" }];
export const loader = rolePageLoader("Race Admin", "races");
export default RolePage;
