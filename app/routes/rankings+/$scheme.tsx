import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "../../components/error-page";
import { loadPublicList } from "../../public-rankings.server";

/** A public scheme's season list: place, name, club, points and number of results (decision 0064). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const page = await loadPublicList(context, params.scheme, new URL(request.url).searchParams.get("season"));
  // Only what the page shows travels to the browser: a federation's list has thousands of racers.
  const racers = (page.list?.racers ?? []).map((r) => ({
    rank: r.rank,
    identity: r.identity,
    name: r.name,
    club: r.club,
    points: r.points,
    results: r.results.length,
    plus20: r.plus20,
  }));
  return { ...page, list: null, racers, hasList: page.list !== null };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.scheme.name}${data.season ? ` ${data.season}` : ""} · Rankings` : "Rankings" },
  { name: "viewport", content: "width=device-width, initial-scale=1" },
];

const points = (n: number) => n.toFixed(2);

export default function PublicRankingList() {
  const { scheme, seasons, season, plus20, racers } = useLoaderData<typeof loader>();
  const csv = `/rankings/${scheme.id}/list.csv${season ? `?${new URLSearchParams({ season }).toString()}` : ""}`;
  return (
    <main className="page">
      <p className="race-meta">
        <Link to="/rankings">← Rankings</Link> · {scheme.clubName}
      </p>
      <h1>{season ? `${scheme.name} ${season}` : scheme.name}</h1>
      {seasons.length > 1 ? (
        <Form method="get" className="series-upload">
          <label>
            Season{" "}
            <select name="season" defaultValue={season ?? ""}>
              {seasons.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Show</button>
        </Form>
      ) : null}
      <p>
        {scheme.table ? "Points by place from the scheme's points table; the most points rank first." : "FIS points: the fewest points rank first."}
        {plus20 ? " A racer with a single result this season is listed at that result plus 20% (marked +20%)." : null}
      </p>
      <p>
        <a href={csv} download>
          Download the list (CSV)
        </a>
      </p>
      {racers.length === 0 ? (
        <p className="empty-state">No ranked results yet. The list fills in as the season’s races have results.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table results-table">
            <thead>
              <tr>
                <th scope="col" className="num">
                  Place
                </th>
                <th scope="col">Name</th>
                <th scope="col">Club</th>
                <th scope="col" className="num">
                  Points
                </th>
                <th scope="col" className="num">
                  Results
                </th>
              </tr>
            </thead>
            <tbody>
              {racers.map((r) => (
                <tr key={r.identity}>
                  <td className="num">{r.rank}</td>
                  <td>{r.name}</td>
                  <td>{r.club ?? ""}</td>
                  <td className="num">
                    {points(r.points)}
                    {r.plus20 ? <span title="A single result this season, plus 20%"> +20%</span> : null}
                  </td>
                  <td className="num">{r.results}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage page back={{ to: "/rankings", label: "Rankings" }} notFound="There is no public ranking list at this address on this site." />;
}
