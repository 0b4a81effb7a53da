import type { MetaFunction } from "@remix-run/cloudflare";
import { RolePage } from "../components/role-page";
import { rolePageLoader } from "../role-pages.server";

export const meta: MetaFunction = () => [{ title: "Race Overview" }];
export const loader = rolePageLoader("Race Overview", "races");
export default RolePage;
