import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { requireRaceAccess } from "../../race-admin.server";
import { ErrorPage, RACE_SETUP_ERRORS } from "../../components/error-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Race Admin · ${data.race.name}` : "Race Admin" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { race, may, room } = await requireRaceAccess(request, context, params.id, "view");
  const settings = await room.settings();
  return { race: { id: race.id, name: race.name, clubName: race.clubName, visibility: race.visibility }, may, isFreeOrder: settings?.is_free_segment === true };
}

/** Sections of the race admin area; each page checks its own permission again on the server. */
const sections = [
  { to: "", label: "Setup", end: true },
  { to: "courses", label: "Courses" },
  { to: "points", label: "Timing points" },
  { to: "segments", label: "Segments", freeOrderOnly: true },
  { to: "devices", label: "Devices" },
  { to: "startgroups", label: "Start groups" },
  { to: "startorder", label: "Start order" },
  { to: "fields", label: "Racer fields" },
  { to: "formats", label: "Result formats" },
  { to: "racers", label: "Racers" },
  { to: "heats", label: "Heats" },
  { to: "reports", label: "Reports" },
  { to: "keypad", label: "Keypad" },
  { to: "entries", label: "Keyed entries" },
  { to: "people", label: "People" },
  { to: "history", label: "History" },
] as const;

export default function RaceAdminLayout() {
  const { race, may, isFreeOrder } = useLoaderData<typeof loader>();
  return (
    <main className="page race-admin">
      <p className="race-meta">
        {race.clubName} · <a href={`/races/${race.id}`}>Public page</a>
        {may.announce || may.time || may.edit ? (
          <>
            {" · "}
            <a href={`/races/${race.id}/announcer`}>Announcer screen</a>
          </>
        ) : null}
      </p>
      <h1>{race.name}</h1>
      <nav aria-label="Race administration" className="admin-tabs">
        <ul>
          {sections
            .filter((s) => isFreeOrder || !("freeOrderOnly" in s))
            .map((s) => (
              <li key={s.to}>
                <NavLink to={s.to ? `/race/${race.id}/admin/${s.to}` : `/race/${race.id}/admin`} end={"end" in s}>
                  {s.label}
                </NavLink>
              </li>
            ))}
        </ul>
      </nav>
      <Outlet />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage page {...RACE_SETUP_ERRORS} />;
}
