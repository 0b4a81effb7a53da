import { describe, expect, it } from "vitest";
import { cardTags, sportsEventData, summaryOf, type EventCardInput } from "./event-card";

const event: EventCardInput = {
  title: "Winter Loppet 2027",
  description: "Classic and skate races\n\nfor everyone.",
  startDate: "2027-02-14",
  endDate: "2027-02-15",
  status: "scheduled",
  sport: "Cross Country Skiing",
  url: "https://demo.example/events/winter-loppet-2027",
  imageUrl: "https://demo.example/banner.jpg",
  location: "Gatineau Park",
  organizer: { name: "Nordic Demo Club", url: "https://demo.example/" },
};

describe("an event's card", () => {
  it("describes the event as a schema.org SportsEvent", () => {
    expect(sportsEventData(event)).toEqual({
      "@context": "https://schema.org",
      "@type": "SportsEvent",
      name: "Winter Loppet 2027",
      url: "https://demo.example/events/winter-loppet-2027",
      eventStatus: "https://schema.org/EventScheduled",
      organizer: { "@type": "SportsOrganization", name: "Nordic Demo Club", url: "https://demo.example/" },
      startDate: "2027-02-14",
      endDate: "2027-02-15",
      description: "Classic and skate races for everyone.",
      image: ["https://demo.example/banner.jpg"],
      sport: "Cross Country Skiing",
      location: { "@type": "Place", name: "Gatineau Park", address: "Gatineau Park" },
    });
    const bare = sportsEventData({ ...event, description: null, imageUrl: null, location: null, sport: null, endDate: null, status: "cancelled" });
    expect(bare).toMatchObject({ endDate: "2027-02-14", eventStatus: "https://schema.org/EventCancelled" });
    expect(bare).not.toHaveProperty("location");
    expect(bare).not.toHaveProperty("image");
  });

  it("gives Open Graph and Twitter tags, with the banner as the image", () => {
    const tags = cardTags(event, "Nordic Demo Club");
    expect(tags).toContainEqual({ property: "og:image", content: "https://demo.example/banner.jpg" });
    expect(tags).toContainEqual({ property: "og:url", content: event.url });
    expect(tags).toContainEqual({ name: "twitter:card", content: "summary_large_image" });
    expect(cardTags({ ...event, imageUrl: null }, "x")).toContainEqual({ name: "twitter:card", content: "summary" });
  });

  it("summarises a long description at a word", () => {
    expect(summaryOf(null, "Title")).toBe("Title");
    const summary = summaryOf(`${"word ".repeat(60)}end`, "Title");
    expect(summary.length).toBeLessThanOrEqual(200);
    expect(summary.endsWith("word…")).toBe(true);
  });
});
