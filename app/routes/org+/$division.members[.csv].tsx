import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { spreadsheetCsv } from "../../../core/entity/csv";
import { listSeasons, seasonMembers } from "../../../workers/services/memberships";
import { requireDivisionAccess } from "../../admin/memberships.server";
import { csvDownload } from "../../keypad.server";

/** A season's members as a spreadsheet: `/org/{division}/members.csv?season=…` (the running season by default). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { db, division } = await requireDivisionAccess(request, context, params.division ?? "");
  if (!division) throw new Response("Not found", { status: 404 });
  const wanted = new URL(request.url).searchParams.get("season");
  const seasons = await listSeasons(db, division.id);
  const season = seasons.find((s) => s.id === wanted) ?? (wanted ? null : seasons.find((s) => s.startsAt <= context.now && context.now < s.endsAt));
  if (!season) throw new Response("Not found", { status: 404 });
  const members = await seasonMembers(db, season);
  const csv = spreadsheetCsv(
    ["Member number", "First name", "Last name", "Birth date", "Gender", "E-mail", "Member class", "Programs", "Expires", "Renewed"],
    members.map((m) => [
      String(m.memberNumber),
      m.firstName,
      m.lastName,
      m.birthDate ?? "",
      m.gender ?? "",
      m.email ?? "",
      m.memberClass,
      m.programs.join("; "),
      new Date(m.expiresAt - 1).toISOString().slice(0, 10),
      m.renewed ? "yes" : "no",
    ]),
  );
  return csvDownload(csv, division.name, season.name);
}
