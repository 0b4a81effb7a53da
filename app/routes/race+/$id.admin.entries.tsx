import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { openDb } from "../../../schema/d1";
import type { TimingDeviceDoc, TimingPointDoc } from "../../../schema/race/documents";
import { KEYED_ENTRIES_SHOWN } from "../../../durable/race/keyed-entries";
import { keyedEntryLines } from "../../../workers/services/keyed-entries";
import { ErrorPage, RACE_SETUP_ERRORS } from "../../components/error-page";
import { requireRaceAccess } from "../../race-admin.server";

/** The list changes with every entry: never a cached copy. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export const meta: MetaFunction = () => [{ title: "Keyed entries" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { race, room } = await requireRaceAccess(request, context, params.id, "time");
  const [entries, points, devices] = await Promise.all([room.keyedEntries(), room.documents("TimingPoint"), room.documents("TimingDevice")]);
  const names = {
    clubId: race.clubId,
    timezone: race.timezone,
    startTime: race.startTime,
    points: new Map(points.map((p) => [p.id, (p.data as TimingPointDoc).name])),
    devices: new Map(devices.map((d) => [d.id, (d.data as TimingDeviceDoc).name || (d.data as TimingDeviceDoc).humanname || d.id])),
  };
  const lines = await keyedEntryLines(openDb(context.env.DB), names, entries);
  return { raceId: race.id, timezone: race.timezone, lines, shown: KEYED_ENTRIES_SHOWN };
}

export const ErrorBoundary = () => <ErrorPage {...RACE_SETUP_ERRORS} />;

export default function KeyedEntriesPage() {
  const { raceId, timezone, lines, shown } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="entries-heading">
      <h2 id="entries-heading">Keyed entries</h2>
      <p className="hint">
        Every time, status and shooting entered on a keypad, by a serverbox and its phones, or by the range-data device: newest first, each once however often
        it was sent, with who keyed it. Times are in {timezone}. The newest {shown} are shown;{" "}
        <Link to={`/race/${raceId}/admin/keypad`}>enter one on the keypad</Link>.
      </p>
      {lines.length === 0 ? (
        <p>Nothing keyed yet. Entries from the keypad, serverboxes and the range-data device appear here.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Bib</th>
                <th scope="col">Racer</th>
                <th scope="col">Entry</th>
                <th scope="col">Keyed by</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line) => (
                <tr key={line.key}>
                  <td>{line.received}</td>
                  <td>{line.bib}</td>
                  <td>
                    {line.problem ? (
                      <span className="error-text">{line.problem}</span>
                    ) : line.racerId ? (
                      <Link to={`/race/${raceId}/admin/racers/${line.racerId}`}>{line.racer}</Link>
                    ) : (
                      line.racer
                    )}
                  </td>
                  <td>{line.what}</td>
                  <td>{line.who}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
