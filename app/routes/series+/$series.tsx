import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { FormMessage } from "../../components/auth-card";
import { ErrorPage } from "../../components/error-page";
import { SeriesStandingsTables } from "../../components/series-standings";
import { loadSeriesStandings, postPointsFile } from "../../series.server";

/** A series' standings, recomputed from its races' current results whenever one changed (decision 0048). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return loadSeriesStandings(context, params.series, new URL(request.url));
}

export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const timing = loaderHeaders.get("Server-Timing");
  return timing ? { "Server-Timing": timing } : new Headers();
};

/** The series' staff upload a points file (carried points), or remove it. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { status, ...reply } = await postPointsFile(context, params.series, request);
  return data(reply, { status });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.series.name}${data.series.year ? ` ${data.series.year}` : ""} · Standings` : "Standings" },
  { name: "viewport", content: "width=device-width, initial-scale=1" },
];

function PointsFileForm({ hasPointsFile }: { hasPointsFile: boolean }) {
  const reply = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <section aria-labelledby="points-file-heading" className="series-points-file">
      <h2 id="points-file-heading">Points file</h2>
      <p>
        Points carried into the standings (last season, races timed elsewhere): a CSV whose first row names the columns Category, Name, Club and Points. A
        standings export reads too (its Total). An upload replaces the file whole; a file with a bad row changes nothing.
      </p>
      {reply && !reply.ok ? (
        <div className="form-error" role="alert">
          <p>Nothing was imported:</p>
          <ul>
            {reply.errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <FormMessage notice={reply?.ok ? (reply.rows > 0 ? `Points file saved: ${reply.rows} racers carry points.` : "Points file removed.") : null} />
      <Form method="post" encType="multipart/form-data" className="series-upload">
        <input type="hidden" name="intent" value="upload" />
        <label>
          CSV file <input type="file" name="file" accept=".csv,text/csv" required />
        </label>
        <button type="submit" disabled={busy}>
          Upload points file
        </button>
      </Form>
      {hasPointsFile ? (
        <Form method="post" encType="multipart/form-data">
          <input type="hidden" name="intent" value="clear" />
          <button type="submit" className="button-secondary" disabled={busy}>
            Remove points file
          </button>
        </Form>
      ) : null}
    </section>
  );
}

export default function SeriesStandingsPage() {
  const { series, standings, staff, hasPointsFile, pages, category } = useLoaderData<typeof loader>();
  return (
    <main className="page">
      <p className="race-meta">
        <Link to="/series">← Series</Link> · {series.clubName}
      </p>
      <h1>{series.year ? `${series.name} ${series.year}` : series.name}</h1>
      {series.isPublic ? null : <p className="notice">This series is private: only its staff see these standings.</p>}
      <p>
        <a href={`/series/${series.id}/standings.csv`} download>
          Download the standings (CSV)
        </a>
      </p>
      {category ? (
        <p>
          <Link to={`/series/${series.id}`}>← Every category</Link>
        </p>
      ) : null}
      <SeriesStandingsTables standings={standings} pages={pages} seriesPath={`/series/${series.id}`} />
      {staff ? <PointsFileForm hasPointsFile={hasPointsFile} /> : null}
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage page back={{ to: "/series", label: "Series" }} notFound="There is no series at this address on this site." />;
}
