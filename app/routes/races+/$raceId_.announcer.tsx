import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { requireAnnouncerPage } from "../../announcer.server";
import { AnnouncerScreen } from "../../components/announcer-screen";

/** Race staff only, and live: never kept by a cache. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

/** `/races/{raceId}/announcer?format=…`: the announcer screen of an announcer format (decision 0045); 404 for anyone not race staff. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { race, formats, view } = await requireAnnouncerPage(context, params.raceId, new URL(request.url));
  return { race: { id: race.id, name: race.name, timezone: race.timezone }, formats, view };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Announcer · ${data.view ? `${data.view.name} · ` : ""}${data.race.name}` : "Announcer" },
  { name: "viewport", content: "width=device-width, initial-scale=1" },
];

export default function RaceAnnouncer() {
  const { race, formats, view } = useLoaderData<typeof loader>();
  if (!view) {
    return (
      <main className="page">
        <h1>{race.name}</h1>
        <p className="empty-state">
          This race has no announcer format yet. Add a result format that announcers see in the race&apos;s{" "}
          <a href={`/race/${race.id}/admin/formats`}>result formats</a>, and its screen opens here.
        </p>
      </main>
    );
  }
  return (
    <main className="announcer-page">
      <AnnouncerScreen key={view.formatId} race={race} formats={formats} initial={view} />
    </main>
  );
}
