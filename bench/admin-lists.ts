// The administration's lists at size (issue 25): each super-admin area's list with 10,000 objects of its class,
// read by a signed-in System Administrator through wrangler dev: the first page, a sorted page, a deep page and
// a search. One p95 per area, and the worst of them. Objects are added by the development-only /_dev/bulk-rows.
import { adminAreas } from "../core/access/admin-areas";
import { entityClasses } from "../schema/entities/classes";
import { demoClubs, demoRegistrations, demoSites, demoUsers } from "../scripts/demo-data";
import { percentile, send, signInCookie, type BenchResponse } from "./http";
import { report } from "./report";

const ADMIN = "admin.localhost";
const ROWS = 10_000;
const TIMEOUT_MS = 15_000;
const TARGET_P95_MS = 200;

/** One request with a deadline, retried once after a transient failure (a refused connection, a 502/503). */
async function timedSend(port: number, path: string, cookie: string, method = "GET", body?: string): Promise<BenchResponse> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await Promise.race([
        send(port, ADMIN, method, path, body, { Cookie: cookie, ...(body ? { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin" } : {}) }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out: ${path}`)), TIMEOUT_MS)),
      ]);
      if ((response.status === 502 || response.status === 503) && attempt === 0) continue;
      return response;
    } catch (error) {
      if (attempt > 0) throw error;
    }
  }
}

export async function runAdminLists(port: number): Promise<void> {
  const cookie = await signInCookie(port, ADMIN, demoUsers[0]);
  const owners: Record<string, string> = {
    club: demoClubs[0].id,
    site: demoSites[0].id,
    registration: demoRegistrations(Date.now())[0]!.id,
    user: demoUsers[0].id,
  };
  const worst: number[] = [];
  for (const area of adminAreas) {
    const entity = entityClasses.find((e) => e.area === area.key && !e.parent) ?? entityClasses.find((e) => e.area === area.key);
    if (!entity) continue;
    const added = await timedSend(port, "/_dev/bulk-rows", cookie, "POST", JSON.stringify({ classname: entity.classname, count: ROWS, owners }));
    if (added.status !== 200) throw new Error(`could not add ${entity.classname} rows: ${added.status} ${added.body.slice(0, 300)}`);
    const nameField = ["name", "title", "subject", "holder_name", "hostname", "email"].find((api) => entity.fields.some((f) => f.api === api));
    const base = `/_admin/${area.key}?class=${entity.classname}`;
    const paths = [
      ...Array.from({ length: 20 }, () => base),
      ...Array.from({ length: 10 }, () => `${base}&sort=${nameField ? `-${nameField}` : "-created_time"}`),
      ...Array.from({ length: 10 }, () => `${base}&page=150`),
      ...Array.from({ length: 10 }, (_, i) => `${base}&q=${encodeURIComponent(`0${4000 + i * 7}`)}`),
    ];
    const times: number[] = [];
    for (const path of paths) {
      const response = await timedSend(port, path, cookie);
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
      times.push(response.ms);
    }
    const first = await timedSend(port, base, cookie);
    const total = /(\d[\d,]*) of ([\d,]+)/.exec(first.body.replaceAll("<!-- -->", ""))?.[2]?.replaceAll(",", "");
    if (!total || Number(total) < ROWS) throw new Error(`${area.key} lists ${total ?? "no"} objects, expected at least ${ROWS}`);
    const p95 = percentile(
      times.sort((a, b) => a - b),
      95,
    );
    worst.push(p95);
    report(`admin_list_p95_${area.key}`, p95, "ms", { class: entity.classname, objects: Number(total), requests: times.length, target: TARGET_P95_MS });
  }
  report("admin_list_p95_worst", Math.max(...worst), "ms", { areas: worst.length, objects_each: ROWS, target: TARGET_P95_MS });
}
