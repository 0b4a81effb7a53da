/**
 * A newsletter to a race's entrants filtered by course and category (decision 0062): only the matching entrants
 * receive it, never one who unsubscribed; the page offers the chosen races' courses and categories and says whom
 * it reaches; the page and the data API refuse another race's course and a category no entrant has, alike.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { AUDIENCE_FILTER_MESSAGES } from "../../core/newsletters/mailing";
import type { RaceRoom } from "../../durable/race-room";
import { capturedMail, newsletterUnsubscribes, registrations } from "../../schema/d1";
import { dispatchNewsletter } from "../../workers/services/newsletters";
import workerModule from "../../workers/index";
import { cookieFrom, createUserWithPassword, db, pagePost, signIn, worker } from "./auth-fixtures";
import { hostRequest } from "./fixtures";
import { createApp, issueToken } from "./oauth-fixtures";
import { createForm, post } from "./registration-fixtures";
import { createTimedRace } from "./timing-fixtures";
import { everyRacer } from "../../workers/services/race-racers";

const PASSWORD = "course-filter-42";

async function racersOf(room: DurableObjectStub<RaceRoom>, count: number) {
  for (let i = 0; i < 100; i++) {
    const racers = await everyRacer(room);
    if (racers.length >= count) return racers;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return everyRacer(room);
}

/** Runs the dispatch and the mail consumer over a queue that records what is sent to it. */
async function dispatchAndSend(id: string, at: number) {
  const sent: { body: unknown }[] = [];
  const queue = { sendBatch: async (messages: { body: unknown }[]) => void sent.push(...messages), send: async (body: unknown) => void sent.push({ body }) };
  await dispatchNewsletter({ ...env, MAIL_QUEUE: queue as unknown as Queue }, db(), id, at);
  const batch = createMessageBatch(
    "startline-mail",
    sent.map((m, i) => ({ id: `f${i}`, timestamp: new Date(), attempts: 1, body: m.body })),
  );
  const ctx = createExecutionContext();
  await workerModule.queue!(batch, env, ctx);
  await getQueueResult(batch, ctx);
}

describe("a newsletter to a race's entrants on some courses and in some categories", { timeout: 40_000 }, () => {
  it("goes only to the matching entrants, never the unsubscribed, says whom it reaches, and refuses another race's course", async () => {
    const t = await createTimedRace({ racers: 0 });
    const f = await createForm({ isStripe: false });
    await db().update(registrations).set({ clubId: t.club.id, raceId: t.race.id, raceCourseId: t.course.id }).where(eq(registrations.id, f.registration.id));
    const register = async (first: string, email: string) => {
      const reply = await post(f.host, f.path, { intent: "save-person", [f.ids.first]: first, [f.ids.last]: "Racer", [f.ids.distance]: "10k" });
      const cookie = cookieFrom(reply, `sl_cart_${f.registration.id.replaceAll("-", "")}`)!;
      await post(f.host, `${f.path}/cart`, { intent: "continue", email }, cookie);
      expect((await post(f.host, `${f.path}/pay`, { intent: "manual" }, cookie)).status).toBe(302);
    };
    await register("Ada", "ada-course@example.com");
    await register("Grace", "grace-course@example.com");
    await register("Hopper", "hopper-course@example.com");
    const racers = await racersOf(t.room, 3);
    const short = await t.room.saveDocument("Course", null, { name: "5 km" });
    if (!short.ok) throw new Error("the 5 km course was refused");
    const racer = (first: string) => racers.find((r) => r.data.first_name === first)!.id;
    expect((await t.room.saveRacer(racer("Ada"), { category: "U16" })).ok).toBe(true);
    expect((await t.room.saveRacer(racer("Grace"), { course: short.value.id, category: "U16" })).ok).toBe(true);
    expect((await t.room.saveRacer(racer("Hopper"), { course: short.value.id, category: "Open" })).ok).toBe(true);
    await db().insert(newsletterUnsubscribes).values({ clubId: t.club.id, email: "hopper-course@example.com", createdAt: Date.now() });

    const editor = await createUserWithPassword("course-filter-editor@example.com", PASSWORD, [{ type: "org_admin", clubId: t.club.id }]);
    const cookie = await signIn("localhost", editor.email, PASSWORD);
    const at = new Date(Date.now() + 60_000).toISOString().slice(0, 16);
    const due = new Date(`${at}:00Z`).getTime() + 1;
    const fields = (subject: string, audience: Record<string, string>) => ({
      subject,
      count: "1",
      "b0.type": "text",
      "b0.text": "Results are up.",
      [`race:${t.race.id}`]: "on",
      ...audience,
    });
    const newsletter = async (subject: string) => {
      const submission = crypto.randomUUID();
      await pagePost("localhost", `/club/${t.club.id}/newsletters`, { intent: "create", submission, subject }, cookie);
      return { id: submission, path: `/club/${t.club.id}/newsletters/${submission}` };
    };
    const html = async (path: string) =>
      (await (await worker.fetch(hostRequest("localhost", path, { headers: { Cookie: cookie } }))).text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'");
    const sentTo = async (subject: string, audience: Record<string, string>) => {
      const { id, path } = await newsletter(subject);
      const scheduled = await pagePost("localhost", path, { intent: "schedule", at, ...fields(subject, audience) }, cookie);
      expect(scheduled.headers.get("Location")).toBe(`${path}?saved=scheduled`);
      await dispatchAndSend(id, due);
      return (await db().select().from(capturedMail).where(eq(capturedMail.subject, subject))).map((m) => m.to).sort();
    };

    // Saved with the race, the page offers its courses and its entrants' categories, and says whom it reaches.
    const { path } = await newsletter("Five km news");
    expect((await pagePost("localhost", path, { intent: "save", ...fields("Five km news", { [`course:${short.value.id}`]: "on" }) }, cookie)).status).toBe(302);
    const editorPage = await html(path);
    expect(editorPage).toContain("5 km (Timed Race)");
    expect(editorPage).toContain(`name="category:U16"`);
    expect(editorPage).toContain(`name="category:Open"`);
    expect(editorPage).toContain("The entrants of Timed Race on 5 km (Timed Race) — 1 reader today");

    expect(await sentTo("Short course", { [`course:${short.value.id}`]: "on" })).toEqual(["grace-course@example.com"]);
    expect(await sentTo("Under 16", { "category:U16": "on" })).toEqual(["ada-course@example.com", "grace-course@example.com"]);
    expect(await sentTo("Under 16 on 5 km", { [`course:${short.value.id}`]: "on", "category:U16": "on" })).toEqual(["grace-course@example.com"]);
    expect(await sentTo("Everyone", {})).toEqual(["ada-course@example.com", "grace-course@example.com"]);

    // Another race's course, a category no entrant has: refused by the page and the data API in the same words.
    const other = await createTimedRace({ racers: 0 });
    const refused = await newsletter("Not ours");
    const foreign = await pagePost("localhost", refused.path, { intent: "save", ...fields("Not ours", { [`course:${other.course.id}`]: "on" }) }, cookie);
    expect(foreign.status).toBe(400);
    expect(await foreign.text()).toContain(AUDIENCE_FILTER_MESSAGES.otherCourses);
    const noSuch = await pagePost("localhost", refused.path, { intent: "save", ...fields("Not ours", { "category:M70": "on" }) }, cookie);
    expect(noSuch.status).toBe(400);
    expect((await noSuch.text()).replaceAll("&#x27;", "'")).toContain(AUDIENCE_FILTER_MESSAGES.otherCategories);

    const token = await issueToken(editor.id, await createApp({ scopes: "emails" }), "localhost", "emails");
    const api = (body: unknown) =>
      worker.fetch(
        hostRequest("localhost", `/data-api/EmailNewsletter/${refused.id}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    const viaApi = await api({ audience: { members: false, registrations: [], races: [t.race.id], courses: [other.course.id] } });
    expect(viaApi.status).toBe(400);
    expect(JSON.stringify(await viaApi.json())).toContain(AUDIENCE_FILTER_MESSAGES.otherCourses);
    // Garbage is a 4xx, never a 500.
    expect((await api({ audience: { members: false, registrations: [], races: [t.race.id], courses: "all" } })).status).toBe(400);
    expect((await api({ audience: { members: false, registrations: [], races: [t.race.id], categories: [""] } })).status).toBe(400);
    const accepted = await api({ audience: { members: false, registrations: [], races: [t.race.id], courses: [t.course.id], categories: ["U16"] } });
    expect(accepted.status).toBeLessThan(300);
  });
});
