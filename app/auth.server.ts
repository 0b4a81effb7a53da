import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { eq } from "drizzle-orm";
import type { RoleGrant } from "../core/access/roles";
import { openDb, roles } from "../schema/d1";
import { rotateAttemptToken, type AuthDeps, type VerifyReply } from "../workers/auth/attempts";
import { clearCookie, cookieNames, readCookie, serializeCookie } from "../workers/auth/cookies";
import { deviceOf, newDeviceCookie } from "../workers/auth/devices";
import { clientKeyOf } from "../workers/auth/failures";
import { defaultSignedInPath } from "../workers/auth/hosts";
import { sessionCookie } from "../workers/auth/request-session";
import { loadRoles } from "../workers/auth/roles";
import { claimSession, setActiveRole } from "../workers/auth/sessions";
import { safeGoto } from "../core/auth/goto";
import { userAgentLabel } from "../core/auth/user-agent";
import { reauthHref } from "../workers/auth/reauth";
import { ATTEMPT_COOKIE_MAX_AGE_S, REAUTH_DEFAULT_GOTO, SESSION_HANDOFF_MS } from "../core/auth/constants";

export function authDeps(request: Request, context: AppLoadContext): AuthDeps {
  return { env: context.env, db: openDb(context.env.DB), tenant: context.tenant, now: context.now, clientKey: clientKeyOf(request), ...deviceOf(request) };
}

/** The signed-in session, or a redirect to /login that comes back here afterwards. */
export function requireSession(request: Request, context: AppLoadContext) {
  if (context.session) return context.session;
  const url = new URL(request.url);
  throw redirect(`/login?goto=${encodeURIComponent(url.pathname + url.search)}`);
}

/** Sends the browser to re-authenticate and come back to this page (a sensitive change found the sign-in too old). */
export function redirectToReauth(request: Request): never {
  const url = new URL(request.url);
  throw redirect(reauthHref(url.pathname + url.search));
}

export async function rolesOf(context: AppLoadContext, userId: string): Promise<RoleGrant[]> {
  return loadRoles(openDb(context.env.DB), userId);
}

/** A verified sign-in waiting to become a session cookie, possibly on another host. */
export interface Handoff {
  token: string;
  host: string;
  goto: string | null;
  role: string | null;
}

export function handoffCookie(handoff: Handoff): string {
  return serializeCookie(cookieNames.handoff, JSON.stringify(handoff), SESSION_HANDOFF_MS / 1000);
}

export function readHandoff(request: Request): Handoff | null {
  const raw = readCookie(request, cookieNames.handoff);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Handoff;
    return typeof value.token === "string" && typeof value.host === "string" ? value : null;
  } catch {
    return null;
  }
}

/**
 * What happens after a verification step: a code screen when the attempt is partial, the passkey offer
 * when it applies, and otherwise the hand-over of the session to its host.
 */
export async function continueSignInAfterLink(request: Request, context: AppLoadContext, reply: VerifyReply) {
  const token = reply.attempt_id && reply.status !== "failed" ? await rotateAttemptToken(openDb(context.env.DB), reply.attempt_id) : null;
  return continueSignIn(request, reply, token);
}

export function continueSignIn(request: Request, reply: VerifyReply, attemptToken: string | null) {
  const headers = new Headers();
  if (attemptToken) headers.append("Set-Cookie", serializeCookie(cookieNames.attempt, attemptToken, ATTEMPT_COOKIE_MAX_AGE_S));
  if (reply.status === "partial") return redirect("/login/totp", { headers });
  // A re-authentication refreshed the session this browser already has: back to the change it was making.
  if (reply.status === "verified" && reply.reauth) return redirect(safeGoto(reply.goto, [new URL(request.url).hostname]) ?? REAUTH_DEFAULT_GOTO, { headers });
  if (reply.status !== "verified" || !reply.token || !reply.host) return null;
  headers.append("Set-Cookie", handoffCookie({ token: reply.token, host: reply.host, goto: reply.goto, role: null }));
  // The browser the sign-in was remembered under keeps its id (workers/auth/devices.ts).
  const deviceCookie = newDeviceCookie(request);
  if (deviceCookie) headers.append("Set-Cookie", deviceCookie);
  const skipped = readCookie(request, cookieNames.passkeySkip) === "1";
  const sameHost = reply.host === new URL(request.url).hostname;
  return redirect(reply.prompt_passkey && !skipped && sameHost ? "/login/passkey" : "/login/complete", { headers });
}

/** Finishes a hand-over on this host: claims the session, sets its cookie and goes to goto. */
export async function claimHere(context: AppLoadContext, handoff: Handoff, userAgent: string | null = null) {
  const db = openDb(context.env.DB);
  const claimed = await claimSession(db, handoff.token, context.tenant.hostname, context.now, userAgentLabel(userAgent));
  if (!claimed) return null;
  if (handoff.role) {
    const role = await db.query.roles.findFirst({ where: eq(roles.id, handoff.role) });
    if (role?.userId === claimed.user.id) await setActiveRole(db, claimed.id, role.id);
  }
  const headers = new Headers();
  headers.append("Set-Cookie", sessionCookie(handoff.token));
  headers.append("Set-Cookie", clearCookie(cookieNames.handoff));
  return redirect(safeGoto(handoff.goto, [context.tenant.hostname]) ?? defaultSignedInPath(context.tenant), { headers });
}
