// A newsletter to 10,000 readers through `wrangler dev` (issue 26): the demo club's form gets 10,000 paid
// carts with their own addresses (the development-only /_dev/bulk-rows); the club admin writes a newsletter to
// the form's registrants and presses "Save and send now". Timed from that press: until its mailing list is
// drawn up and queued (the page counts 10,000 deliveries), and until every mail went out through the mail
// queue's consumer to the local capture (as far as it gets within the deadline). `--only newsletter` in bench/run.ts.
import { demoClubs, demoRegistrations, demoUsers } from "../scripts/demo-data";
import { send, signInCookie, type BenchResponse } from "./http";
import { report } from "./report";

const READERS = 10_000;
const TIMEOUT_MS = 15_000;
const LIST_DEADLINE_MS = 60_000;
const SENT_DEADLINE_MS = 180_000;
const POLL_MS = 250;
const FORM = { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin" };

/** One request with a deadline, retried once after a transient failure (a refused connection, a 502/503). */
async function timedSend(port: number, host: string, method: string, path: string, cookie: string, body?: string): Promise<BenchResponse> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await Promise.race([
        send(port, host, method, path, body, {
          Cookie: cookie,
          ...(body === undefined
            ? {}
            : method === "POST" && body.startsWith("{")
              ? { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin" }
              : FORM),
        }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out: ${method} ${path}`)), TIMEOUT_MS)),
      ]);
      if ((response.status === 502 || response.status === 503) && attempt === 0) continue;
      return response;
    } catch (error) {
      if (attempt > 0) throw error;
    }
  }
}

/** The delivery counts the newsletter page states: "Sending: 12 of 10000 sent" or "Sent … to 10000 people". */
function countsOf(html: string): { sent: number; total: number } | null {
  const text = html.replaceAll("<!-- -->", "");
  const sending = /Sending: (\d+) of (\d+) sent/.exec(text);
  if (sending) return { sent: Number(sending[1]), total: Number(sending[2]) };
  const sent = /Sent [^<]*? to (\d+) (?:people|person)/.exec(text);
  return sent ? { sent: Number(sent[1]), total: Number(sent[1]) } : null;
}

export async function runNewsletterSend(port: number): Promise<void> {
  const club = demoClubs[0].id;
  const form = demoRegistrations(Date.now()).find((r) => r.clubId === club);
  if (!form) throw new Error("the demo club has no registration form");
  const admin = await signInCookie(port, "admin.localhost", demoUsers[0]);
  const readers = JSON.stringify({
    classname: "Cart",
    count: READERS,
    owners: { registration: form.id, club, site: form.siteId },
    fill: ["email"],
    set: { is_complete: true },
  });
  const added = await timedSend(port, "admin.localhost", "POST", "/_dev/bulk-rows", admin, readers);
  if (added.status !== 200) throw new Error(`could not add the readers' carts: ${added.status} ${added.body.slice(0, 300)}`);

  const cookie = await signInCookie(port, "localhost", demoUsers[1]);
  const submission = crypto.randomUUID();
  const subject = `Bench newsletter ${submission.slice(0, 8)}`;
  const created = await timedSend(
    port,
    "localhost",
    "POST",
    `/club/${club}/newsletters`,
    cookie,
    new URLSearchParams({ intent: "create", submission, subject }).toString(),
  );
  const path = created.headers.location;
  if (created.status !== 302 || typeof path !== "string") throw new Error(`could not create the newsletter: ${created.status}`);
  const fields = new URLSearchParams({
    intent: "send",
    subject,
    count: "1",
    "b0.type": "text",
    "b0.text": "Race week: bibs from Friday.",
    [`form:${form.id}`]: "on",
  });

  const pressed = performance.now();
  const sent = await timedSend(port, "localhost", "POST", path, cookie, fields.toString());
  if (sent.status !== 302) throw new Error(`"Save and send now" answered ${sent.status}: ${sent.body.slice(0, 300)}`);
  let listed: number | null = null;
  let last = { sent: 0, total: 0 };
  while (performance.now() - pressed < (listed === null ? LIST_DEADLINE_MS : SENT_DEADLINE_MS)) {
    const page = await timedSend(port, "localhost", "GET", path, cookie);
    last = countsOf(page.body) ?? last;
    if (listed === null && last.total >= READERS) listed = (performance.now() - pressed) / 1000;
    if (listed !== null && last.sent >= last.total) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const seconds = (performance.now() - pressed) / 1000;
  if (listed === null)
    throw new Error(`newsletter: the mailing list of ${READERS} was not drawn up within ${LIST_DEADLINE_MS / 1000} s (the page counts ${last.total})`);
  report("newsletter_10000_readers_queued_s", listed, "s", {
    readers: last.total,
    target: 10,
    from: "Save and send now, until the page counts every delivery (the dispatch writes them, then puts them on the mail queue)",
  });
  const done = last.sent >= last.total;
  report(done ? "newsletter_10000_readers_all_sent_s" : "newsletter_10000_readers_sent_within_deadline", done ? seconds : last.sent, done ? "s" : "mails", {
    readers: last.total,
    sent: last.sent,
    mails_per_second: Math.round((last.sent / Math.max(0.001, seconds - listed)) * 10) / 10,
    through: "the mail queue's consumer (batches of 10) to the local mail capture",
    ...(done ? {} : { deadline_s: SENT_DEADLINE_MS / 1000 }),
  });
}
