/**
 * A race's date and start time in the race's own time zone, so the server render and the browser agree
 * and a spectator abroad sees the local start time of the race.
 */
export function formatRaceDate(epochMs: number, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", {
    weekday: "short",
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  }).format(new Date(epochMs));
}

/** A moment as date and time in UTC, the same on the server and in the browser. */
export function formatDateTime(epochMs: number): string {
  return new Intl.DateTimeFormat("en-CA", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
    timeZoneName: "short",
  }).format(new Date(epochMs));
}
