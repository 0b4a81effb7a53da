import type { ListedEvent } from "../events.server";

const STATUS_WORDS = { scheduled: null, postponed: "Postponed", cancelled: "Cancelled" } as const;

/** Events as cards: the title, its days, place and sport, and whether it is postponed or cancelled. */
export function EventList({ events, emptyText }: { events: ListedEvent[]; emptyText: string }) {
  if (events.length === 0) return <p className="empty-state">{emptyText}</p>;
  return (
    <ul className="race-list">
      {events.map((event) => (
        <li key={event.path} className="race-card">
          <a href={`/events/${event.path}`}>
            <span className="race-name">{event.title}</span>
          </a>
          <span className="race-meta">
            {event.days ? <time dateTime={event.startDate ?? undefined}>{event.days}</time> : <span>Dates to be announced</span>}
            {event.location ? <span> · {event.location}</span> : null}
            {event.sport ? <span> · {event.sport}</span> : null}
            {STATUS_WORDS[event.status] ? <strong> · {STATUS_WORDS[event.status]}</strong> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
