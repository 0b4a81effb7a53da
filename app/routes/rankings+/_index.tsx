import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "../../components/error-page";
import { loadPublicSchemes } from "../../public-rankings.server";

/** The site's public ranking lists (decision 0064); a private scheme is not listed. */
export async function loader({ context }: LoaderFunctionArgs) {
  return { schemes: await loadPublicSchemes(context) };
}

export const meta: MetaFunction = () => [{ title: "Rankings" }, { name: "viewport", content: "width=device-width, initial-scale=1" }];

export default function RankingSchemes() {
  const { schemes } = useLoaderData<typeof loader>();
  return (
    <main className="page">
      <h1>Rankings</h1>
      {schemes.length === 0 ? (
        <p className="empty-state">No ranking lists here yet.</p>
      ) : (
        <ul className="series-list">
          {schemes.map((s) => (
            <li key={s.id}>
              <Link to={`/rankings/${s.id}`}>{s.name}</Link> · {s.clubName}
              {s.sport ? ` · ${s.sport}` : null}
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
