/**
 * A box's web keypads on the platform (decision 0084): each heartbeat lists the phones paired with the box, and
 * the club sees them on its Servers page as TimingServers of subtype WebClient, with when each last keyed.
 * A club admin's Revoke goes back to the box in the heartbeat's answer, and the box unpairs that phone.
 *
 * A row's id is derived from the box's id and the phone's id on the box, so a box can only ever name its own
 * phones' rows; its serial `<boxId>/<phoneId>` finds them again.
 */
import { and, eq, like, notInArray } from "drizzle-orm";
import { initialMtimes } from "../../core/entity/field-mtimes";
import { serverboxes, type Db } from "../../schema/d1";
import type { PairedBox } from "./serverboxes";

export { MAX_REPORTED_WEBCLIENTS } from "../../core/servers/pairing";

export interface ReportedWebClient {
  id: string;
  name: string;
  last_seen: number | null;
}

/** The platform's row id of a box's phone: a UUID-shaped SHA-256 of both ids. */
async function rowIdOf(boxId: string, clientId: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`webclient:${boxId}:${clientId}`)));
  const hex = Array.from(digest.slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const serialOf = (boxId: string, clientId: string) => `${boxId}/${clientId}`;

/** Whether a server row is one of a box's phones (its serial names the box), and which box. */
export function webClientBoxOf(server: { subtype: string; serial: string | null }): string | null {
  if (server.subtype !== "webclient" || !server.serial) return null;
  const slash = server.serial.indexOf("/");
  return slash > 0 ? server.serial.slice(0, slash) : null;
}

/**
 * Records the phones a box reports: new ones added, known ones' last-seen time kept current, those the box no
 * longer lists marked inactive. A row the club revoked stays revoked; its phone's id is returned for the box to forget.
 */
export async function recordWebClients(db: Db, box: PairedBox, clients: readonly ReportedWebClient[], now: number): Promise<string[]> {
  const rows = await Promise.all(clients.map(async (c) => ({ client: c, id: await rowIdOf(box.id, c.id), serial: serialOf(box.id, c.id) })));
  const ofThisBox = and(eq(serverboxes.clubId, box.clubId), eq(serverboxes.subtype, "webclient"), like(serverboxes.serial, `${box.id}/%`));
  const writes = rows.map(({ client, id, serial }) => {
    const values = { club: box.clubId, site: box.siteId, name: client.name, subtype: "webclient", serial, is_active: true };
    return db
      .insert(serverboxes)
      .values({
        id,
        createdAt: now,
        fieldMtimes: initialMtimes(Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null)), now),
        clubId: box.clubId,
        siteId: box.siteId,
        name: client.name,
        subtype: "webclient",
        serial,
        lastSeenTime: client.last_seen,
        isActive: true,
      })
      .onConflictDoUpdate({
        target: serverboxes.id,
        set: { lastSeenTime: client.last_seen },
        // Only this box's own row: the id is derived, and this holds even so.
        where: and(eq(serverboxes.clubId, box.clubId), eq(serverboxes.serial, serial)),
      });
  });
  const forgotten = db
    .update(serverboxes)
    .set({ isActive: false })
    .where(
      rows.length === 0
        ? ofThisBox
        : and(
            ofThisBox,
            notInArray(
              serverboxes.id,
              rows.map((r) => r.id),
            ),
          ),
    );
  const revoked = db
    .select({ serial: serverboxes.serial })
    .from(serverboxes)
    .where(and(ofThisBox, eq(serverboxes.isActive, false)));
  const results = await db.batch([forgotten, ...writes, revoked]);
  const reported = new Set(rows.map((r) => r.serial));
  const revokedRows = results[results.length - 1] as { serial: string | null }[];
  return revokedRows.filter((r) => r.serial !== null && reported.has(r.serial)).map((r) => r.serial!.slice(box.id.length + 1));
}
