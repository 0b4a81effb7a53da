import { and, eq, ne } from "drizzle-orm";
import * as z from "zod";
import { DEVICE_COOKIE_MAX_AGE_S } from "../../core/auth/constants";
import { deviceLabelOf } from "../../core/auth/device-label";
import { knownDevices, type Db } from "../../schema/d1";
import { cookieNames, readCookie, serializeCookie } from "./cookies";
import { hashToken, randomToken } from "./crypto";
import { sendSecurityNotice, type NoticeDeps } from "./notices";

/**
 * Known devices (issue 28). The host-only HttpOnly `sl_device` cookie holds a random id; a device is known
 * to a user once a sign-in of theirs completed from it. Only the id's SHA-256 is stored.
 */
const deviceIdSchema = z.string().regex(/^[A-Za-z0-9_-]{20,64}$/);

/** Ids made for requests that came without the cookie, so the response can issue the same one. */
const issuedIds = new WeakMap<Request, string>();

/** The device id and label AuthDeps carry: the cookie's id, or a new one this request's response will issue. */
export function deviceOf(request: Request): { deviceId: string; deviceLabel: string } {
  const deviceLabel = deviceLabelOf(request.headers.get("User-Agent"));
  const fromCookie = deviceIdSchema.safeParse(readCookie(request, cookieNames.device));
  if (fromCookie.success) return { deviceId: fromCookie.data, deviceLabel };
  let deviceId = issuedIds.get(request);
  if (!deviceId) {
    deviceId = randomToken();
    issuedIds.set(request, deviceId);
  }
  return { deviceId, deviceLabel };
}

/** The Set-Cookie giving a browser the id its sign-in was remembered under, when it came without one. */
export function newDeviceCookie(request: Request): string | null {
  const deviceId = issuedIds.get(request);
  return deviceId ? serializeCookie(cookieNames.device, deviceId, DEVICE_COOKIE_MAX_AGE_S) : null;
}

/** Adds the device cookie to a response that completed a sign-in, if the browser has none yet. */
export function withDeviceCookie(request: Request, response: Response, signedIn: boolean): Response {
  const cookie = signedIn ? newDeviceCookie(request) : null;
  if (cookie) response.headers.append("Set-Cookie", cookie);
  return response;
}

/** The stored hash of `deviceId` when it is one of this user's known devices, else null. */
export async function knownDeviceHash(db: Db, userId: string, deviceId: string | null): Promise<string | null> {
  if (!deviceId) return null;
  const deviceHash = hashToken(deviceId);
  const found = await db.query.knownDevices.findFirst({ where: and(eq(knownDevices.userId, userId), eq(knownDevices.deviceHash, deviceHash)) });
  return found ? deviceHash : null;
}

/**
 * Remembers the device a sign-in completed from. A device new to a user who already has another known
 * device gets them the "new-device" notice; the very first sign-in does not.
 */
export async function rememberDevice(
  deps: NoticeDeps & { deviceId?: string | null; deviceLabel?: string },
  user: { id: string; email: string; name: string },
): Promise<void> {
  if (!deps.deviceId) return;
  const { db, now } = deps;
  const deviceHash = hashToken(deps.deviceId);
  const label = (deps.deviceLabel ?? "an unknown browser").slice(0, 60);
  const inserted = await db
    .insert(knownDevices)
    .values({ userId: user.id, deviceHash, label, firstSeenAt: now, lastSeenAt: now })
    .onConflictDoNothing()
    .returning({ userId: knownDevices.userId });
  if (inserted.length === 0) {
    await db
      .update(knownDevices)
      .set({ lastSeenAt: now, label })
      .where(and(eq(knownDevices.userId, user.id), eq(knownDevices.deviceHash, deviceHash)));
    return;
  }
  const other = await db.query.knownDevices.findFirst({ where: and(eq(knownDevices.userId, user.id), ne(knownDevices.deviceHash, deviceHash)) });
  if (!other) return;
  try {
    await sendSecurityNotice(deps, user, { kind: "new-device", device: label });
  } catch (error) {
    // A notice that cannot be sent must not undo a sign-in that succeeded.
    console.error("New-device notice failed", error);
  }
}
