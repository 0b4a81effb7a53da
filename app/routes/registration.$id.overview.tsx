import type { MetaFunction } from "@remix-run/cloudflare";
import { RolePage } from "../components/role-page";
import { rolePageLoader } from "../role-pages.server";

export const meta: MetaFunction = () => [{ title: "Registration Form Overview" }];
export const loader = rolePageLoader("Registration Form Overview", "registrations");
export default RolePage;
