import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { and, asc, count, desc, eq, like, type SQL } from "drizzle-orm";
import { foldName } from "../../../core/geo/cities";
import { cities } from "../../../schema/d1";
import { ADMIN_PAGE_SIZE, requireAreaAdmin } from "../../admin/entity-admin.server";
import { ErrorPage } from "../../components/error-page";

export const meta: MetaFunction = () => [{ title: "Cities · Administration" }];

/**
 * The super-admin area "cities": the shipped GeoNames data set (decision 0007), read only, since a build
 * writes it. Searched by the start of a name (accents ignored) and a country, largest places first.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { db } = await requireAreaAdmin(request, context, "cities");
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const country = (url.searchParams.get("country") ?? "").trim().toUpperCase();
  const pageText = Number(url.searchParams.get("page") ?? "1");
  const page = Number.isSafeInteger(pageText) && pageText >= 1 && pageText <= 100_000 ? pageText : 1;
  const conditions: SQL[] = [];
  if (q) conditions.push(like(cities.asciiName, `${foldName(q).replace(/[\\%_]/g, "")}%`));
  if (/^[A-Z]{2}$/.test(country)) conditions.push(eq(cities.countryIso, country));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [rows, totals] = await db.batch([
    db
      .select()
      .from(cities)
      .where(where)
      .orderBy(desc(cities.population), asc(cities.geoname))
      .limit(ADMIN_PAGE_SIZE)
      .offset((page - 1) * ADMIN_PAGE_SIZE),
    db.select({ n: count() }).from(cities).where(where),
  ]);
  return { q, country, page, pageSize: ADMIN_PAGE_SIZE, total: totals[0]?.n ?? 0, rows };
}

export const ErrorBoundary = () => (
  <ErrorPage
    page
    forbidden="This area is open to System Administrators whose configuration includes it. Ask a System Administrator to add it to your role."
    back={{ to: "/_admin", label: "Administration" }}
  />
);

export default function CitiesArea() {
  const { q, country, page, pageSize, total, rows } = useLoaderData<typeof loader>();
  const href = (p: number) => `/_admin/cities?${new URLSearchParams({ q, country, page: String(p) }).toString()}`;
  return (
    <main className="page">
      <p>
        <a href="/_admin">← Administration</a>
      </p>
      <h1>Cities</h1>
      <p>The GeoNames data set the platform ships (CC BY 4.0). It is rebuilt with the product, so it is read only here.</p>
      <Form method="get" className="admin-search" role="search">
        <label htmlFor="q">Name starts with</label>
        <input id="q" name="q" type="search" defaultValue={q} maxLength={100} />
        <label htmlFor="country">Country (two letters)</label>
        <input id="country" name="country" defaultValue={country} maxLength={2} size={3} />
        <button type="submit" className="small">
          Search
        </button>
      </Form>
      <p aria-live="polite">
        {total === 0 ? "No city found" : `${(page - 1) * pageSize + 1}–${Math.min(total, page * pageSize)} of ${total.toLocaleString("en-CA")}`}
      </p>
      <div className="table-scroll">
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Province</th>
              <th scope="col">Country</th>
              <th scope="col">Time zone</th>
              <th scope="col">Population</th>
              <th scope="col">GeoNames id</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((city) => (
              <tr key={city.geoname}>
                <td>{city.name}</td>
                <td>{city.provinceIso ?? ""}</td>
                <td>{city.countryIso}</td>
                <td>{city.timezone}</td>
                <td>{city.population.toLocaleString("en-CA")}</td>
                <td>{city.geoname}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav aria-label="Pages" className="actions">
        {page > 1 ? <Link to={href(page - 1)}>← Previous</Link> : null}
        {page * pageSize < total ? <Link to={href(page + 1)}>Next →</Link> : null}
      </nav>
    </main>
  );
}
