import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { clubsWhereAllowed } from "../../../workers/services/club-choices";
import { financeFilterOf, transactionsCsv } from "../../../workers/services/finance";
import { csvDownload } from "../../keypad.server";
import { requirePrincipal } from "../../registration-admin.server";

/** The club's transactions as filtered on the finance page, as a CSV download. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { db, principal } = await requirePrincipal(request, context);
  const clubs = await clubsWhereAllowed(db, principal, context.tenant, "finance", "transactions");
  const url = new URL(request.url);
  const club = clubs.find((c) => c.id === url.searchParams.get("club")) ?? clubs[0];
  if (!club) throw new Response("Forbidden", { status: 403 });
  return csvDownload(await transactionsCsv(db, { clubIds: [club.id] }, financeFilterOf(url)), club.name, "transactions");
}
