import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { requireRaceAccess } from "../../race-admin.server";
import { REPORTS } from "../../racer-reports.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Reports · ${data.raceName}` : "Reports" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { race } = await requireRaceAccess(request, context, params.id, "view");
  return { raceId: race.id, raceName: race.name, reports: Object.entries(REPORTS).map(([key, r]) => ({ key, ...r })) };
}

/** The report templates of timing.md section 2, each a printable page and a CSV download. */
export default function Reports() {
  const { raceId, reports } = useLoaderData<typeof loader>();
  const base = `/race/${raceId}/admin/reports`;
  return (
    <section aria-labelledby="reports-heading">
      <h2 id="reports-heading">Reports</h2>
      <ul className="stack" style={{ listStyle: "none", padding: 0 }}>
        {reports.map((r) => (
          <li key={r.key}>
            <h3 style={{ marginBottom: "0.25rem" }}>
              <Link to={`${base}/${r.key}`}>{r.title}</Link>
            </h3>
            <p style={{ margin: "0 0 0.4rem" }}>{r.description}</p>
            <a href={`${base}/${r.key}/csv`} download>
              Download {r.title} as CSV
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
