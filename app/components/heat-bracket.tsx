import type { ReactNode } from "react";
import { formatRaceTime } from "../../core/time/format";
import { seatInWords } from "../../core/timing/heat-formats";
import type { HeatGroupWire, HeatsView, HeatWire } from "../../schema/wire/race-socket";

const STATUS_TEXT = { dnf: "DNF", dns: "DNS", dsq: "DSQ" } as const;

/** A heat's start as a time of day in the race's zone. */
function startText(micros: number, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone }).format(new Date(micros / 1000));
}

/**
 * The sprint bracket: each start group's rounds side by side, each heat a table of its seats. Seats not
 * decided yet say where they come from (QF1:2 is second in QF1, LL1 the first lucky loser). `tools` adds a
 * timer's controls under a heat.
 */
export function HeatBracket({ view, timeZone, tools }: { view: HeatsView; timeZone: string; tools?: (heat: HeatWire, group: HeatGroupWire) => ReactNode }) {
  if (view.groups.length === 0)
    return <p className="empty-state">No heats yet. They appear here once a start group's qualifier is done and its heats are seeded.</p>;
  return (
    <>
      {view.groups.map((group) => (
        <section key={group.startGroupId} className="heat-group" aria-labelledby={`heats-${group.startGroupId}`}>
          <h3 id={`heats-${group.startGroupId}`}>
            {group.name} <span className="hint">· {group.formatName}</span>
          </h3>
          <div className="bracket">
            {group.rounds.map((round) => (
              <section key={round.round} className="bracket-round" aria-label={round.name}>
                <h4>
                  {round.name}
                  {round.complete ? <span className="hint"> · done</span> : null}
                </h4>
                {round.heats.map((heat) => (
                  <HeatCard key={heat.key} heat={heat} view={view} timeZone={timeZone}>
                    {tools?.(heat, group)}
                  </HeatCard>
                ))}
              </section>
            ))}
          </div>
          <Ranking group={group} />
        </section>
      ))}
    </>
  );
}

function HeatCard({ heat, view, timeZone, children }: { heat: HeatWire; view: HeatsView; timeZone: string; children?: ReactNode }) {
  const state = heat.complete ? "done" : heat.ready ? "ready" : "waiting";
  const showQualifier = view.timesShown === "quali";
  return (
    <article className={`heat-card heat-${state}`} data-heat={heat.canonicalName} aria-labelledby={`heat-${heat.id}`}>
      <header>
        <h5 id={`heat-${heat.id}`}>{heat.name}</h5>
        <span className="hint">
          {heat.scheduledStart !== null ? `${startText(heat.scheduledStart, timeZone)} · ` : ""}
          {heat.complete ? "Result" : heat.ready ? "Ready to race" : "Waiting for the round before"}
        </span>
      </header>
      <table className="heat-table">
        <thead>
          <tr>
            <th scope="col">{heat.complete ? "Place" : "Seat"}</th>
            <th scope="col">Bib</th>
            <th scope="col">Name</th>
            <th scope="col">{showQualifier ? "Qualifier" : "Time"}</th>
            <th scope="col">
              <span className="visually-hidden">Goes on</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {heat.entries.map((entry, i) => (
            <tr key={entry.racerId ?? `${entry.seat}-${i}`} className={entry.advances ? "advances" : undefined}>
              <td>
                {heat.complete ? (entry.place ?? (entry.status ? STATUS_TEXT[entry.status] : "")) : <Seat seat={entry.seat} inLowerHeat={heat.rankIndex > 0} />}
              </td>
              <td>{entry.bib ?? ""}</td>
              <td>{entry.racerId ? entry.name : <span className="hint">To be decided</span>}</td>
              <td className="time">
                {showQualifier
                  ? entry.qualifierTime !== null
                    ? formatRaceTime(entry.qualifierTime, view.displayPrecision)
                    : ""
                  : entry.time !== null
                    ? formatRaceTime(entry.time, view.displayPrecision)
                    : ""}
              </td>
              <td>
                {entry.advances === "place" ? (
                  <abbr title="Goes on by place">Q</abbr>
                ) : entry.advances === "lucky" ? (
                  <abbr title="Goes on as a lucky loser">LL</abbr>
                ) : entry.advances === "lower" ? (
                  <abbr title="Races a lower final (B-Final)">B</abbr>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {children}
    </article>
  );
}

/** A seat in words: "Q4" the 4th qualifier, "QF1:2" second in QF1, "LL1" the first lucky loser; a lower final's seats say "Next". */
function Seat({ seat, inLowerHeat }: { seat: string; inLowerHeat: boolean }) {
  const words = seatInWords(seat, inLowerHeat);
  return <abbr title={words.title}>{words.text}</abbr>;
}

/** The ranking so far: finalists by place, the B-Final below the A-Final, then by the round reached. */
function Ranking({ group }: { group: HeatGroupWire }) {
  const anyResult = group.rounds.some((r) => r.heats.some((h) => h.complete));
  if (!anyResult) return null;
  const roundName = (n: number) => (n === 0 ? "Qualifier" : (group.rounds[n - 1]?.name ?? ""));
  return (
    <details className="heat-ranking" open={group.rounds.at(-1)?.complete}>
      <summary>Ranking{group.rounds.at(-1)?.complete ? "" : " so far"}</summary>
      <table>
        <thead>
          <tr>
            <th scope="col">Rank</th>
            <th scope="col">Bib</th>
            <th scope="col">Name</th>
            <th scope="col">Reached</th>
            <th scope="col">Qualified</th>
          </tr>
        </thead>
        <tbody>
          {group.ranking.map((r) => (
            <tr key={r.racerId}>
              <td>{r.rank}</td>
              <td>{r.bib ?? ""}</td>
              <td>{r.name}</td>
              <td>{roundName(r.roundReached)}</td>
              <td>{r.qualifierRank}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
