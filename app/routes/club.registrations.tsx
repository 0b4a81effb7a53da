import type { MetaFunction } from "@remix-run/cloudflare";
import { RolePage } from "../components/role-page";
import { rolePageLoader } from "../role-pages.server";

export const meta: MetaFunction = () => [{ title: "Registration Forms" }];
export const loader = rolePageLoader("Registration Forms", "registrations");
export default RolePage;
