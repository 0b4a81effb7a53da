import type { ListedEvent } from "../events.server";
import type { HomeBlock, PageBlock } from "../../schema/wire/page-blocks";
import { EventList } from "./event-list";
import { PageBlocks } from "./page-blocks";
import { RaceList } from "./race-list";

type Races = Parameters<typeof RaceList>[0]["races"];

/** A site's home page made of blocks: a page's blocks, with the upcoming events and races where the club placed them. */
export function HomeBlocks({ blocks, events, races }: { blocks: readonly HomeBlock[]; events: ListedEvent[]; races: Races }) {
  // Runs of page blocks render as a page does; each list block renders its list under its heading.
  const parts: ({ kind: "page"; blocks: PageBlock[] } | { kind: "events" | "races"; text: string })[] = [];
  for (const block of blocks) {
    if (block.type === "events" || block.type === "races") parts.push({ kind: block.type, text: block.text });
    else if (parts.at(-1)?.kind === "page") (parts.at(-1) as { blocks: PageBlock[] }).blocks.push(block);
    else parts.push({ kind: "page", blocks: [block] });
  }
  return (
    <>
      {parts.map((part, i) =>
        part.kind === "page" ? (
          <PageBlocks key={i} body={{ kind: "blocks", blocks: part.blocks }} lang="en" />
        ) : (
          <section key={i} aria-labelledby={`home-list-${i}`}>
            <h2 id={`home-list-${i}`}>{part.text}</h2>
            {part.kind === "events" ? (
              <>
                <EventList events={events} emptyText="No upcoming events yet. Check back soon." />
                <p>
                  <a href="/events">All events</a>
                </p>
              </>
            ) : (
              <RaceList races={races} showClub={false} emptyText="No upcoming races yet. Check back soon." />
            )}
          </section>
        ),
      )}
    </>
  );
}
