/**
 * A series' standings per category (issue 27): rank, name, club, each race's points and the total. A result
 * dropped by best-N is bracketed and muted, never only coloured. On a phone the race columns fold into a
 * line under the name, as the results tables fold their splits.
 */
import { Link } from "@remix-run/react";
import { STANDINGS_PAGE_SIZE, type CategoryPage, type ShownRow, type ShownStandings } from "../../core/series/standings-page";

/**
 * A race's cell. Its alignment, and hiding on a phone, come from its column (app.css), not a class per cell: a
 * page of 200 racers × 20 races drew 4,000 cells, and their classes were a third of its HTML.
 */
function raceCell(key: string, text: string, dropped: boolean) {
  if (text === "")
    return (
      <td key={key}>
        <span aria-hidden="true">–</span>
        <span className="visually-hidden">no result</span>
      </td>
    );
  return dropped ? (
    <td key={key} className="dropped" title="Dropped: not among the results that count">
      {text}
      <span className="visually-hidden"> dropped</span>
    </td>
  ) : (
    <td key={key}>{text}</td>
  );
}

/** A race as the phone's line names it: with its scale, as its column header shows it on a wider screen. */
const raceLabel = (race: ShownStandings["races"][number]) => (race.scale !== 1 ? `${race.name} ×${race.scale}` : race.name);

function Row({ row, races, carried }: { row: ShownRow; races: ShownStandings["races"]; carried: boolean }) {
  let dropped = 0;
  return (
    <tr>
      <td className="num">{row.rank}</td>
      <td>
        {row.name}
        {row.club ? <span className="narrow-only series-club">{row.club}</span> : null}
        {/* One line of text on a phone rather than an element per race: a page of 200 racers of a 20-race season
            was 8,000 elements more, and half its rendering time. */}
        <p className="narrow-only series-race-points">{races.map((race, i) => `${raceLabel(race)}: ${row.cells[i] || "–"}`).join(" · ")}</p>
      </td>
      <td>{row.club ?? ""}</td>
      {carried ? <td>{row.carried}</td> : null}
      {races.map((race, i) => {
        // `dropped` lists positions in order, so one pass finds each.
        const isDropped = row.dropped[dropped] === i;
        if (isDropped) dropped++;
        return raceCell(race.id, row.cells[i] ?? "", isDropped);
      })}
      <td className="num series-total">{row.total}</td>
    </tr>
  );
}

/** Where a category's page is, and links to its neighbours and to the whole category. */
function PageLinks({ page, seriesPath }: { page: CategoryPage; seriesPath: string }) {
  if (page.pages <= 1) return null;
  const to = (n: number) => `${seriesPath}?${new URLSearchParams({ category: page.category, page: String(n) }).toString()}`;
  const first = (page.page - 1) * STANDINGS_PAGE_SIZE + 1;
  const last = Math.min(page.racers, page.page * STANDINGS_PAGE_SIZE);
  return (
    <nav className="series-pages" aria-label={`${page.category} pages`}>
      <span>
        Racers {first}–{last} of {page.racers}
      </span>
      {page.page > 1 ? <Link to={to(page.page - 1)}>← Previous {STANDINGS_PAGE_SIZE}</Link> : null}
      {page.page < page.pages ? <Link to={to(page.page + 1)}>Next {STANDINGS_PAGE_SIZE} →</Link> : null}
    </nav>
  );
}

export function SeriesStandingsTables({
  standings,
  pages = [],
  seriesPath = "",
}: {
  standings: ShownStandings;
  pages?: readonly CategoryPage[];
  seriesPath?: string;
}) {
  const carried = standings.carried;
  if (standings.categories.length === 0) return <p className="empty-state">No standings yet. They appear here as the series’ races have results.</p>;
  const counted =
    standings.bestOf !== null && standings.bestOf < standings.races.length
      ? `Each racer’s best ${standings.bestOf} results of ${standings.races.length} count; the others are shown in brackets.`
      : null;
  return (
    <>
      {counted ? <p className="series-counted">{counted}</p> : null}
      {standings.categories.map((category) => (
        <section key={category.category} aria-labelledby={`cat-${category.category}`} className="result-group">
          <h2 id={`cat-${category.category}`}>{category.category}</h2>
          {category.rows.length === 0 ? (
            <p className="empty-state">No results in this category yet.</p>
          ) : (
            <div className="table-scroll">
              <table className="data-table results-table series-table">
                <thead>
                  <tr>
                    <th scope="col" className="num">
                      Rank
                    </th>
                    <th scope="col">Name</th>
                    <th scope="col">Club</th>
                    {carried ? (
                      <th scope="col" className="num">
                        Carried
                      </th>
                    ) : null}
                    {standings.races.map((race) => (
                      <th scope="col" key={race.id} className="num">
                        {race.name}
                        {race.scale !== 1 ? <span className="series-scale"> ×{race.scale}</span> : null}
                      </th>
                    ))}
                    <th scope="col" className="num">
                      Total
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {category.rows.map((row) => (
                    <Row key={row.identity} row={row} races={standings.races} carried={carried} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {pages.find((p) => p.category === category.category) ? (
            <PageLinks page={pages.find((p) => p.category === category.category)!} seriesPath={seriesPath} />
          ) : null}
        </section>
      ))}
    </>
  );
}
