import type { MetaFunction } from "@remix-run/cloudflare";
import { RolePage } from "../../components/role-page";
import { listReach, reachesNothing } from "../../../core/access/reach";
import { rolePageLoader } from "../../role-pages.server";

export const meta: MetaFunction = () => [{ title: "Races" }];
// All Races' home page, linked from the club overview: open to anyone who may see some club's races.
export const loader = rolePageLoader(
  "Races",
  "races",
  () => [{ href: "/race/new", label: "Create a race" }],
  (principal) => !reachesNothing(listReach(principal, "view", "races")),
);
export default RolePage;
