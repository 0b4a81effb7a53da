/**
 * Newsletters (issue 26): written on the club's page with the same rules as the data API, scheduled, drawn up
 * into one delivery per address and sent through the mail queue once to each reader, whatever runs twice.
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, count, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { capturedMail, carts, emailNewsletters, newsletterDeliveries, registrations } from "../../schema/d1";
import type { RaceRoom } from "../../durable/race-room";
import { NEWSLETTER_MESSAGES } from "../../workers/services/admin-entity-rules";
import { dispatchDueNewsletters, dispatchNewsletter } from "../../workers/services/newsletters";
import workerModule from "../../workers/index";
import { cookieFrom, createUserWithPassword, db, pagePost, signIn, worker, signedInAs } from "./auth-fixtures";
import { createSiteWithRace, hostRequest, recordingEnv, consumeMail } from "./fixtures";
import { createApp, issueToken } from "./oauth-fixtures";
import { createForm, post } from "./registration-fixtures";
import { createTimedRace, postReads, SECOND } from "./timing-fixtures";
import { everyRacer } from "../../workers/services/race-racers";

const PASSWORD = "tidal-newsletter-42";

async function clubWithEditor(tag: string, role = "org_admin") {
  const { club, site } = await createSiteWithRace(db(), { hostname: `${tag}.localhost`, siteName: `${tag} club`, raceName: `${tag} race` });
  return { club, site, ...(await signedInAs("localhost", [{ type: role, clubId: club.id }], { email: `${tag}-editor@example.com`, password: PASSWORD })) };
}

const page = (path: string, cookie: string) => worker.fetch(hostRequest("localhost", path, { headers: { Cookie: cookie }, redirect: "manual" }));

/** A form of the club with paid carts from these addresses and one unpaid cart. */
async function formWithRegistrants(clubId: string, siteId: string, emails: string[]) {
  const id = crypto.randomUUID();
  await db().insert(registrations).values({ id, clubId, siteId, name: "Harbour 10K", fieldMtimes: {} });
  // One JSON parameter for any number of carts (D1 binds at most 100 parameters to a statement).
  const rows = [...emails.map((email) => [crypto.randomUUID(), email, 1]), [crypto.randomUUID(), "unpaid@example.com", 0]];
  await db().run(sql`INSERT INTO ${carts} (id, registration_id, club_id, site_id, email, is_complete, cart_number)
    SELECT value ->> 0, ${id}, ${clubId}, ${siteId}, value ->> 1, value ->> 2, key + 1 FROM json_each(${JSON.stringify(rows)})`);
  return id;
}

/** A queue that records what is sent to it, so the test runs the consumer itself. */

const consume = consumeMail;

async function createOnPage(clubId: string, cookie: string, subject: string) {
  const submission = crypto.randomUUID();
  const replies = await Promise.all([1, 2].map(() => pagePost("localhost", `/club/${clubId}/newsletters`, { intent: "create", submission, subject }, cookie)));
  for (const reply of replies) expect(reply.headers.get("Location")).toBe(`/club/${clubId}/newsletters/${submission}`);
  return submission;
}

const editorFields = (subject: string, blocks: Record<string, string>[], audience: Record<string, string>) => ({
  subject,
  count: String(blocks.length),
  ...Object.fromEntries(blocks.flatMap((b, i) => Object.entries(b).map(([k, v]) => [`b${i}.${k}`, v]))),
  ...audience,
});

describe("newsletters", () => {
  it("are written on the club's page: a double click starts one, blocks are added without saving, and the page and the data API refuse alike", async () => {
    const { club, user, cookie } = await clubWithEditor("news-a");
    const id = await createOnPage(club.id, cookie, "Spring news");
    const rows = await db().select().from(emailNewsletters).where(eq(emailNewsletters.clubId, club.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.elements).toEqual([{ type: "logo" }, { type: "header", text: "Spring news" }]);

    const path = `/club/${club.id}/newsletters/${id}`;
    const added = await pagePost(
      "localhost",
      path,
      { intent: "add:button", ...editorFields("Spring news", [{ type: "header", text: "Spring news" }], {}) },
      cookie,
    );
    expect(added.status).toBe(200);
    expect((await db().select().from(emailNewsletters).where(eq(emailNewsletters.id, id)))[0]!.elements).toHaveLength(2);

    const bad = editorFields(
      "Spring news",
      [
        { type: "header", text: "Spring news" },
        { type: "button", text: "Register", url: "javascript:alert(1)" },
      ],
      { members: "on" },
    );
    const refused = await pagePost("localhost", path, { intent: "save", ...bad }, cookie);
    expect(refused.status).toBe(400);
    const token = await issueToken(user.id, await createApp({ scopes: "emails" }), "localhost", "emails");
    const api = (body: unknown) =>
      worker.fetch(
        hostRequest("localhost", `/data-api/EmailNewsletter/${id}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    expect((await api({ elements: [{ type: "button", text: "Register", url: "javascript:alert(1)" }] })).status).toBe(400);

    // Scheduling needs someone to send it to, in the same words on the page and through the API.
    const nobody = await pagePost("localhost", path, { intent: "send", ...editorFields("Spring news", [{ type: "text", text: "Hello" }], {}) }, cookie);
    expect(nobody.status).toBe(400);
    expect((await nobody.text()).replaceAll("&#x27;", "'")).toContain(NEWSLETTER_MESSAGES.nobody);
    const apiNobody = await api({ sent_time: Date.now() + 3_600_000, audience: { members: false, registrations: [] } });
    expect(apiNobody.status).toBe(400);
    expect(JSON.stringify(await apiNobody.json())).toContain(NEWSLETTER_MESSAGES.nobody);
    const otherClub = await createSiteWithRace(db(), { hostname: "news-a2.localhost", siteName: "other", raceName: "other race" });
    const foreignForm = await formWithRegistrants(otherClub.club.id, otherClub.site.id, []);
    const apiForeign = await api({ sent_time: Date.now() + 3_600_000, audience: { members: false, registrations: [foreignForm] } });
    expect(JSON.stringify(await apiForeign.json())).toContain(NEWSLETTER_MESSAGES.otherForms);
    expect((await db().select().from(emailNewsletters).where(eq(emailNewsletters.id, id)))[0]!.sentTime).toBeNull();
  });

  it("goes once to each paid registrant, never to one who unsubscribed, even when dispatched twice and a message is delivered twice", async () => {
    const { club, site, cookie } = await clubWithEditor("news-b");
    const form = await formWithRegistrants(club.id, site.id, ["ada@example.com", "ADA@example.com ", "bo@example.com", "cy@example.com"]);
    const id = await createOnPage(club.id, cookie, "Race week");
    const path = `/club/${club.id}/newsletters/${id}`;
    const blocks: Record<string, string>[] = [
      { type: "header", text: "Race week <b>is here</b>" },
      { type: "text", text: "Bibs from Friday." },
      { type: "button", text: "Start list", url: "https://news-b.localhost/races" },
    ];
    const saved = await pagePost("localhost", path, { intent: "save", ...editorFields("Race week", blocks, { [`form:${form}`]: "on" }) }, cookie);
    expect(saved.headers.get("Location")).toBe(`${path}?saved=saved`);

    // Bo unsubscribed from an earlier newsletter's link.
    const { env: recording, sent } = recordingEnv();
    await dispatchNewsletter(recording, db(), id, Date.now()); // not scheduled yet: nothing happens
    expect(sent).toHaveLength(0);
    const at = Date.now() + 60_000;
    const local = new Date(at).toISOString().slice(0, 16); // the club's zone is UTC here
    const scheduled = await pagePost(
      "localhost",
      path,
      { intent: "schedule", at: local, ...editorFields("Race week", blocks, { [`form:${form}`]: "on" }) },
      cookie,
    );
    expect(scheduled.headers.get("Location")).toBe(`${path}?saved=scheduled`);
    expect(await (await page(path, cookie)).text()).toContain("Scheduled for");

    const { unsubscribePath } = await import("../../workers/services/newsletter-links");
    const boLink = await unsubscribePath(env, club.id, "bo@example.com");
    const confirm = await worker.fetch(hostRequest("news-b.localhost", boLink));
    expect(await confirm.text()).toContain("Stop sending news-b club");
    const oneClick = await worker.fetch(
      hostRequest("news-b.localhost", boLink, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      }),
    );
    expect(oneClick.status).toBe(200);
    const forged = await worker.fetch(hostRequest("news-b.localhost", boLink.replace("bo%40", "cy%40")));
    expect(forged.status).toBe(404);

    const due = new Date(`${local}:00Z`).getTime() + 1;
    const first = await dispatchNewsletter(recording, db(), id, due);
    const second = await dispatchNewsletter(recording, db(), id, due);
    expect(first).toEqual({ kind: "dispatched", queued: 2, unsubscribed: 1 });
    expect(second).toMatchObject({ kind: "dispatched", queued: 2 });
    expect(sent).toHaveLength(4);
    const result = await consume(sent);
    expect(result.retryMessages).toEqual([]);
    const mails = await db().select().from(capturedMail).where(eq(capturedMail.subject, "Race week"));
    expect(mails.map((m) => m.to).sort()).toEqual(["ada@example.com", "cy@example.com"]);
    const ada = mails.find((m) => m.to === "ada@example.com")!;
    expect(ada.html).toContain("Race week &lt;b&gt;is here&lt;/b&gt;");
    expect(ada.text).toContain("Start list: https://news-b.localhost/races");
    expect(ada.text).toMatch(/Unsubscribe: http:\/\/news-b\.localhost:8787\/newsletters\/unsubscribe\?c=/);
    // A message redelivered after its mail went out sends nothing more.
    await consume(sent.slice(0, 1), 2);
    expect(await db().select().from(capturedMail).where(eq(capturedMail.subject, "Race week"))).toHaveLength(2);
    const states = await db().select().from(newsletterDeliveries).where(eq(newsletterDeliveries.newsletterId, id));
    expect(states.map((d) => d.state)).toEqual(["sent", "sent"]);

    // Sent: the page says so and nothing can change it, on the page or through the API.
    const later = await page(path, cookie);
    expect(await later.text()).toContain("This newsletter has been sent and can no longer be changed");
    const change = await pagePost("localhost", path, { intent: "save", ...editorFields("Race week!", blocks, { [`form:${form}`]: "on" }) }, cookie);
    expect(change.status).toBe(400);
    expect(await change.text()).toContain(NEWSLETTER_MESSAGES.sent);
  });

  it("draws up a list of thousands in one dispatch, each address once", async () => {
    const { club, site, cookie } = await clubWithEditor("news-e");
    const emails = Array.from({ length: 6_000 }, (_, i) => `reader-${i}@example.com`);
    const form = await formWithRegistrants(club.id, site.id, [...emails, "READER-1@example.com"]);
    const id = await createOnPage(club.id, cookie, "Big list");
    const path = `/club/${club.id}/newsletters/${id}`;
    const at = new Date(Date.now() + 60_000).toISOString().slice(0, 16);
    const blocks = [{ type: "text", text: "Hello." }];
    const scheduled = await pagePost("localhost", path, { intent: "schedule", at, ...editorFields("Big list", blocks, { [`form:${form}`]: "on" }) }, cookie);
    expect(scheduled.headers.get("Location")).toBe(`${path}?saved=scheduled`);
    const { env: recording, sent } = recordingEnv();
    expect(await dispatchNewsletter(recording, db(), id, new Date(`${at}:00Z`).getTime() + 1)).toEqual({ kind: "dispatched", queued: 6_000, unsubscribed: 0 });
    expect(sent).toHaveLength(6_000);
    const [written] = await db().select({ total: count() }).from(newsletterDeliveries).where(eq(newsletterDeliveries.newsletterId, id));
    expect(written?.total).toBe(6_000);
  });

  it("is dispatched by the five-minute sweep once its time has come, and a newsletter scheduled later waits", async () => {
    const { club, site, cookie } = await clubWithEditor("news-c");
    const form = await formWithRegistrants(club.id, site.id, ["dee@example.com"]);
    const make = async (subject: string, inMinutes: number) => {
      const id = await createOnPage(club.id, cookie, subject);
      const at = new Date(Date.now() + inMinutes * 60_000).toISOString().slice(0, 16);
      const reply = await pagePost(
        "localhost",
        `/club/${club.id}/newsletters/${id}`,
        { intent: "schedule", at, ...editorFields(subject, [{ type: "text", text: subject }], { [`form:${form}`]: "on" }) },
        cookie,
      );
      expect(reply.status).toBe(302);
      return id;
    };
    const soon = await make("Soon", 2);
    const later = await make("Later", 120);
    const { env: recording, sent } = recordingEnv();
    await dispatchDueNewsletters(recording, db(), Date.now() + 10 * 60_000);
    const dispatched = await db()
      .select({ id: emailNewsletters.id, dispatched: emailNewsletters.dispatchedTime })
      .from(emailNewsletters)
      .where(and(eq(emailNewsletters.clubId, club.id)));
    expect(dispatched.find((n) => n.id === soon)!.dispatched).not.toBeNull();
    expect(dispatched.find((n) => n.id === later)!.dispatched).toBeNull();
    expect(sent).toHaveLength(1);
  });

  it("are open to the club's Communications role and to nobody outside the club", async () => {
    const { club } = await clubWithEditor("news-d");
    const writer = await createUserWithPassword("news-d-comms@example.com", PASSWORD, [{ type: "communications", clubId: club.id }]);
    const writerCookie = await signIn("localhost", writer.email, PASSWORD);
    expect((await page(`/club/${club.id}/newsletters`, writerCookie)).status).toBe(200);
    const stranger = await createUserWithPassword("news-d-stranger@example.com", PASSWORD, []);
    expect((await page(`/club/${club.id}/newsletters`, await signIn("localhost", stranger.email, PASSWORD))).status).toBe(404);
    const timer = await createUserWithPassword("news-d-timer@example.com", PASSWORD, [{ type: "all_races", clubId: club.id }]);
    expect((await page(`/club/${club.id}/newsletters`, await signIn("localhost", timer.email, PASSWORD))).status).toBe(403);
  });
});

describe("a newsletter to a race's entrants", { timeout: 30_000 }, () => {
  /** The room's racers once the entry job has entered `count` of them. */
  async function racersOf(room: DurableObjectStub<RaceRoom>, count: number) {
    for (let i = 0; i < 100; i++) {
      const racers = await everyRacer(room);
      if (racers.length >= count) return racers;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return everyRacer(room);
  }

  it("goes to the race's registered entrants, or only its finishers, and the page refuses another club's race", async () => {
    const t = await createTimedRace({ racers: 2 });
    const f = await createForm({ isStripe: false });
    await db().update(registrations).set({ clubId: t.club.id, raceId: t.race.id, raceCourseId: t.course.id }).where(eq(registrations.id, f.registration.id));
    const register = async (first: string, email: string) => {
      const reply = await post(f.host, f.path, { intent: "save-person", [f.ids.first]: first, [f.ids.last]: "Racer", [f.ids.distance]: "10k" });
      const cookie = cookieFrom(reply, `sl_cart_${f.registration.id.replaceAll("-", "")}`)!;
      await post(f.host, `${f.path}/cart`, { intent: "continue", email }, cookie);
      expect((await post(f.host, `${f.path}/pay`, { intent: "manual" }, cookie)).status).toBe(302);
    };
    await register("Ada", "ada-racer@example.com");
    await register("Grace", "grace-racer@example.com");
    const racers = await racersOf(t.room, 4);
    const ada = racers.find((r) => r.data.first_name === "Ada")!;
    // Ada finishes; Grace is still out. The two racers typed in by hand have no address and receive nothing.
    await postReads(t.host, t.race.id, t.credential.token, { reads: [{ seq: 1, bib: ada.data.bib!, time: t.startMicros + 600 * SECOND, channel: 2 }] });

    const editor = await createUserWithPassword("race-news-editor@example.com", PASSWORD, [{ type: "org_admin", clubId: t.club.id }]);
    const cookie = await signIn("localhost", editor.email, PASSWORD);
    const blocks = [{ type: "text", text: "Results are up." }];
    const at = new Date(Date.now() + 60_000).toISOString().slice(0, 16);
    const due = new Date(`${at}:00Z`).getTime() + 1;
    const sentTo = async (subject: string, audience: Record<string, string>) => {
      const id = await createOnPage(t.club.id, cookie, subject);
      const path = `/club/${t.club.id}/newsletters/${id}`;
      expect(await (await page(path, cookie)).text()).toContain("Everyone entered in Timed Race");
      const scheduled = await pagePost("localhost", path, { intent: "schedule", at, ...editorFields(subject, blocks, audience) }, cookie);
      expect(scheduled.headers.get("Location")).toBe(`${path}?saved=scheduled`);
      const { env: recording, sent } = recordingEnv();
      await dispatchNewsletter(recording, db(), id, due);
      await consume(sent);
      return (await db().select().from(capturedMail).where(eq(capturedMail.subject, subject))).map((m) => m.to).sort();
    };
    expect(await sentTo("Thanks for racing", { [`race:${t.race.id}`]: "on", entrants: "finished" })).toEqual(["ada-racer@example.com"]);
    expect(await sentTo("Race week news", { [`race:${t.race.id}`]: "on" })).toEqual(["ada-racer@example.com", "grace-racer@example.com"]);

    const other = await createTimedRace({ racers: 0 });
    const id = await createOnPage(t.club.id, cookie, "Not ours");
    const refused = await pagePost(
      "localhost",
      `/club/${t.club.id}/newsletters/${id}`,
      { intent: "schedule", at, ...editorFields("Not ours", blocks, { [`race:${other.race.id}`]: "on" }) },
      cookie,
    );
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(NEWSLETTER_MESSAGES.otherRaces);
  });
});

describe("the Worker's five-minute cron", () => {
  it("runs from the scheduled handler, and from /_dev/cron under npm start, which refuses a malformed call", async () => {
    const { createScheduledController, waitOnExecutionContext } = await import("cloudflare:test");
    const ctx = createExecutionContext();
    await workerModule.scheduled!(createScheduledController({ cron: "*/5 * * * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    const post = (body: string) =>
      worker.fetch(hostRequest("localhost", "/_dev/cron", { method: "POST", headers: { "Content-Type": "application/json" }, body }));
    const ran = await post(JSON.stringify({ cron: "*/5 * * * *" }));
    expect(ran.status).toBe(200);
    expect(await ran.json()).toEqual({ ran: "*/5 * * * *" });
    expect((await post("{")).status).toBe(400);
    expect((await post(JSON.stringify({ cron: "*/5 * * * *", extra: 1 }))).status).toBe(400);
  });
});
