import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { financeFilterOf, transactionsCsv } from "../../../workers/services/finance";
import { requireRegistrationAccess } from "../../registration-admin.server";
import { csvDownload } from "../../keypad.server";

/** The form's transactions as filtered on the payments page, as a CSV download. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { registration, builder } = await requireRegistrationAccess(request, context, params.id, "finance");
  const csv = await transactionsCsv(builder.db, { clubIds: [registration.clubId], registrationId: registration.id }, financeFilterOf(new URL(request.url)));
  return csvDownload(csv, registration.name, "payments");
}
