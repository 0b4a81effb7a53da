import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import * as z from "zod";
import { FormMessage } from "../../components/auth-card";
import { PageLinks } from "../../components/page-links";
import { requireRaceAccess } from "../../race-admin.server";
import { racerListPage } from "../../racers.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Racers · ${data.raceName}` : "Racers" }];

const noticeSchema = z.object({
  imported: z.coerce.number().int().min(0).optional().catch(undefined),
  deleted: z.string().max(200).optional().catch(undefined),
});

/** The racers of the race, 50 a page, searched by name or bib. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const access = await requireRaceAccess(request, context, params.id, "view");
  const url = new URL(request.url);
  const page = await racerListPage(access, url);
  const notice = noticeSchema.parse({ imported: url.searchParams.get("imported") ?? undefined, deleted: url.searchParams.get("deleted") ?? undefined });
  return { raceId: access.race.id, raceName: access.race.name, mayEdit: access.may.edit, notice, ...page };
}

export default function Racers() {
  const { raceId, mayEdit, notice, q, page, pages, total, all, rows } = useLoaderData<typeof loader>();
  const base = `/race/${raceId}/admin/racers`;
  const pageLink = (n: number) => `${base}?${new URLSearchParams({ ...(q ? { q } : {}), page: String(n) })}`;
  const csvLink = `${base}/csv${q ? `?${new URLSearchParams({ q })}` : ""}`;
  return (
    <section aria-labelledby="racers-heading">
      <h2 id="racers-heading">Racers</h2>
      <FormMessage
        notice={
          notice.imported !== undefined
            ? `Imported ${notice.imported} ${notice.imported === 1 ? "racer" : "racers"}.`
            : notice.deleted !== undefined
              ? `Deleted ${notice.deleted || "the racer"}.`
              : null
        }
      />
      <p className="actions">
        {mayEdit ? (
          <>
            <Link to={`${base}/new`} className="button">
              Add racer
            </Link>
            <Link to={`${base}/import`} className="button secondary">
              Import from CSV
            </Link>
          </>
        ) : null}
        {all > 0 ? (
          <a href={csvLink} className="button secondary" download>
            Download CSV
          </a>
        ) : null}
      </p>
      {all === 0 ? (
        <p className="empty-state">No racers yet.{mayEdit ? " Add them one by one or import a CSV file." : ""}</p>
      ) : (
        <>
          <Form method="get" action={base} className="search" role="search">
            <label htmlFor="racer-search">Search by name or bib</label>
            <div className="search-row">
              <input id="racer-search" name="q" type="search" defaultValue={q} />
              <button type="submit">Search</button>
            </div>
          </Form>
          {total === 0 ? (
            <p className="empty-state">
              No racer matches “{q}”. <Link to={base}>Show all racers</Link>
            </p>
          ) : (
            <>
              <p aria-live="polite">
                {q ? `${total} of ${all} racers match “${q}”.` : `${all} ${all === 1 ? "racer" : "racers"}.`}
                {pages > 1 ? ` Page ${page} of ${pages}.` : ""}
              </p>
              <div className="table-scroll">
                <table className="data-table">
                  <thead>
                    <tr>
                      <th scope="col">Bib</th>
                      <th scope="col">Name</th>
                      <th scope="col">Course</th>
                      <th scope="col">Start group</th>
                      <th scope="col">Chip</th>
                      <th scope="col">From</th>
                      <th scope="col">Status</th>
                      <th scope="col">Time</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((r) => (
                      <tr key={r.id} data-testid="racer-row">
                        <td>{r.bib ?? ""}</td>
                        <td>{mayEdit ? <Link to={`${base}/${r.id}`}>{r.name || "(no name)"}</Link> : r.name}</td>
                        <td>{r.course}</td>
                        <td>{r.startGroup}</td>
                        <td>{r.chips}</td>
                        <td>{r.source}</td>
                        <td>{r.status}</td>
                        <td>{r.time}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <PageLinks page={page} pages={pages} link={pageLink} />
            </>
          )}
        </>
      )}
    </section>
  );
}
