import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { spreadsheetCsv } from "../../../core/entity/csv";
import { ADMIN_EXPORT_LIMIT, classOf, listParamsOf, readList, requireAreaAdmin } from "../../admin/entity-admin.server";
import { cellText } from "../../admin/entity-views";

/**
 * An area's list as a spreadsheet CSV: every field of the rows the search and filters select, in the list's
 * order, up to ADMIN_EXPORT_LIMIT rows (the header says when more matched). Times are UTC.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const access = await requireAreaAdmin(request, context, params.area ?? "");
  const listParams = listParamsOf(new URL(request.url));
  const entity = classOf(access.area.key, listParams.classname || null);
  const list = await readList(access, entity, listParams, { export: true });
  if (list.problem) return new Response(list.problem, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const header = entity.fields.map((f) => f.api);
  const rows = list.items.map((row) => entity.fields.map((f) => cellText(f.type, row[f.api])));
  return new Response(spreadsheetCsv(header, rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${access.area.key}-${entity.classname.toLowerCase()}.csv"`,
      "Cache-Control": "no-store",
      "X-Total-Count": String(list.total),
      "X-Truncated": list.total > ADMIN_EXPORT_LIMIT ? "true" : "false",
    },
  });
}
