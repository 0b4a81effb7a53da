import type { RaceListing } from "../../workers/services/races";
import { formatRaceDate } from "../format";

/** Upcoming races as a list of cards, or an empty state that says what will appear here. */
export function RaceList({ races, emptyText, showClub }: { races: RaceListing[]; emptyText: string; showClub: boolean }) {
  if (races.length === 0) return <p className="empty-state">{emptyText}</p>;
  return (
    <ul className="race-list">
      {races.map((race) => (
        <li key={race.id} className="race-card">
          <a href={`/races/${race.id}`}>
            <span className="race-name">{race.name}</span>
          </a>
          <span className="race-meta">
            <time dateTime={new Date(race.startTime).toISOString()}>{formatRaceDate(race.startTime, race.timezone)}</time>
            {race.location ? <span> · {race.location}</span> : null}
            {showClub ? <span> · {race.clubName}</span> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
