import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "../../components/error-page";
import { loadSeriesList } from "../../series.server";

/** The site's points series: public ones for everyone, private ones for the series' staff. */
export async function loader({ context }: LoaderFunctionArgs) {
  return { series: await loadSeriesList(context) };
}

export const meta: MetaFunction = () => [{ title: "Series" }, { name: "viewport", content: "width=device-width, initial-scale=1" }];

export default function SeriesList() {
  const { series } = useLoaderData<typeof loader>();
  return (
    <main className="page">
      <h1>Series</h1>
      {series.length === 0 ? (
        <p className="empty-state">No series here yet.</p>
      ) : (
        <ul className="series-list">
          {series.map((s) => (
            <li key={s.id}>
              <Link to={`/series/${s.id}`}>{s.year ? `${s.name} ${s.year}` : s.name}</Link> · {s.clubName}
              {s.isPublic ? null : " · private"}
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage page />;
}
