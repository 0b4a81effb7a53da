import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { canSeeSystemFormats, isSystemFormat } from "../../../workers/services/race-access";
import { kindOf } from "../../../workers/services/race-results";
import { formatRaceDate } from "../../format";
import { requireRaceAccess } from "../../race-admin.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Race Overview · ${data.race.name}` : "Race Overview" }];

/**
 * The home page of the race roles (Technical Delegate, Race Timer, Race Announcer, Race Photographer,
 * Private Results Viewer, and race admins): the race, and links to the tools the caller's roles allow.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { race, room, principal, may } = await requireRaceAccess(request, context, params.id, "view");
  const staff = canSeeSystemFormats(principal, race);
  const formats = (await room.formats()).filter((f) => staff || !isSystemFormat(f.data)).map((f) => ({ id: f.id, name: f.data.name, kind: kindOf(f.data) }));
  return {
    race: {
      id: race.id,
      name: race.name,
      clubName: race.clubName,
      date: formatRaceDate(race.startTime, race.timezone),
      startTime: race.startTime,
      location: race.location,
    },
    may,
    formats,
  };
}

export default function RaceOverview() {
  const { race, may, formats } = useLoaderData<typeof loader>();
  const admin = `/race/${race.id}/admin`;
  return (
    <main className="page">
      <p>
        <Link to="/manage">← Manage</Link>
      </p>
      <h1>{race.name}</h1>
      <p className="race-meta">
        <time dateTime={new Date(race.startTime).toISOString()}>{race.date}</time>
        {race.location ? <span> · {race.location}</span> : null}
        <span> · {race.clubName}</span>
      </p>
      <section aria-labelledby="tools-heading">
        <h2 id="tools-heading">Your tools</h2>
        <ul className="area-grid">
          {may.time ? (
            <li>
              <Link to={`${admin}/keypad`}>Keypad: enter times and statuses</Link>
            </li>
          ) : null}
          <li>
            <Link to={may.edit ? `${admin}/racers` : admin}>{may.edit ? "Race administration: racers and setup" : "Race administration (view only)"}</Link>
          </li>
          <li>
            <Link to={`${admin}/reports`}>Reports: start list and chip rack</Link>
          </li>
          <li>
            <a href={`/races/${race.id}`}>Public race page</a>
          </li>
        </ul>
      </section>
      <section aria-labelledby="formats-heading">
        <h2 id="formats-heading">Results</h2>
        {formats.length === 0 ? (
          <p className="empty-state">No result formats yet.</p>
        ) : (
          <ul className="format-links">
            {formats.map((f) => (
              <li key={f.id}>
                <a href={`/races/${race.id}?format=${f.id}`}>{f.kind === "public" ? f.name : `${f.name} (${f.kind})`}</a>
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}
