import type { MetaFunction } from "@remix-run/cloudflare";
import { RolePage } from "../../components/role-page";
import { rolePageLoader } from "../../role-pages.server";

export const meta: MetaFunction = () => [{ title: "Shipments" }];
export const loader = rolePageLoader("Shipments", "depots");
export default RolePage;
