import { JOBS_QUEUE_NAME, runJobBatch } from "./jobs";
import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
import { openDb } from "../schema/d1";
import { mailMessageSchema } from "../schema/wire/mail";
import { hostConfigFromEnv, resolveTenant } from "../tenants/resolve";
import { normaliseHostname } from "../tenants/host";
import { handleAuthApi } from "./auth";
import { isCrossSiteRequest } from "./auth/csrf";
import { loadRequestSession } from "./auth/request-session";
import { handleDataApi } from "./data-api";
import { escapeHtml, withSecurityHeaders } from "./http";
import { newCspNonce, pagePolicy } from "./security-headers";
import { declaresMoreThan, PAGE_MAX_BODY_BYTES } from "./request-limits";
import { deliverMail, MAIL_MAX_RETRIES, recordDelivery } from "./mail/mailer";
import type { RequestContext } from "./request-context";
import { handleTimingApi } from "./timing-api";
import { handleServerboxApi } from "./serverbox-api";
import { handleMedia } from "./media";
import { handleEventCalendar, isEventCalendarPath } from "./event-calendars";
import { handleStripeWebhook, WEBHOOK_PATH } from "./payments/webhook";
import { productionMisconfiguration } from "./production-config";
import { queuedMailOf } from "./services/queued-mail";
import { runCron } from "./cron";
import { originOf } from "./auth/hosts";
import { cachedSitePage, isCacheableSiteRequest } from "./site-page-cache";
import { retryLater } from "./queue-retry";

export interface ApiMount {
  prefix: string;
  /** Decides instead of the prefix, for addresses that share a prefix with pages (`/events.ics` beside `/events`). */
  matches?: (pathname: string) => boolean;
  handle: (request: Request, context: RequestContext) => Promise<Response>;
}

/** The Worker's own APIs, answered before Remix sees the request. */
const apiMounts: ApiMount[] = [
  { prefix: "/_auth/", handle: handleAuthApi },
  { prefix: "/data-api/", handle: handleDataApi },
  { prefix: "/timing-api/", handle: handleTimingApi },
  { prefix: "/serverbox-api/", handle: handleServerboxApi },
  { prefix: WEBHOOK_PATH, handle: handleStripeWebhook },
  { prefix: "/media/", handle: handleMedia },
  { prefix: "/events", matches: isEventCalendarPath, handle: handleEventCalendar },
];

/**
 * The Worker, around a Remix build. The development entry (workers/index.ts) adds the /_dev mounts; the production entry
 * (workers/production.ts) has none, so no dev code is even in its bundle (docs/security.md).
 */
export function createWorker(remixBuild: ServerBuild, devMounts: ApiMount[]) {
  const handleRemix = createRequestHandler(remixBuild);
  return {
    async fetch(request, env, ctx) {
      const misconfigured = productionMisconfiguration(env);
      if (misconfigured) {
        // Fail closed: a production Worker with development settings would expose captured mail or weak secrets.
        console.error(`Refusing to serve: ${misconfigured}`);
        return withSecurityHeaders(
          new Response("This site is not configured correctly yet.", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } }),
        );
      }
      // A declared body over the global limit is refused before any work; each API mount reads within its own smaller limit.
      if (declaresMoreThan(request, PAGE_MAX_BODY_BYTES)) {
        return withSecurityHeaders(new Response("Request body too large", { status: 413, headers: { "Content-Type": "text/plain; charset=utf-8" } }));
      }
      const db = openDb(env.DB);
      const https = new URL(request.url).protocol === "https:";
      const hostHeader = request.headers.get("Host") ?? new URL(request.url).host;
      const tenant = await resolveTenant(db, hostHeader, hostConfigFromEnv(env));
      if (!tenant) return withSecurityHeaders(unknownHostPage(normaliseHostname(hostHeader) ?? hostHeader), null, { https });
      if (tenant.kind === "redirect") return withSecurityHeaders(primaryDomainRedirect(request, env, tenant.to), null, { https });
      if (await isCrossSiteRequest(request, env, tenant, db)) {
        return withSecurityHeaders(
          new Response("Cross-site request refused", { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8" } }),
          null,
          { https },
        );
      }
      const now = Date.now();
      const { session, setCookie } = await loadRequestSession(request, db, tenant, now);
      const context: RequestContext = { env, tenant, session, db, ctx, now };
      const { pathname } = new URL(request.url);
      const mounted = (m: ApiMount) => (m.matches ? m.matches(pathname) : pathname.startsWith(m.prefix));
      const mount = apiMounts.find(mounted) ?? devMounts.find(mounted);
      if (mount) return withSecurityHeaders(await mount.handle(request, context), setCookie, { https });
      const render = (cspNonce: string) => handleRemix(request, { env, tenant, ctx, session, now, cspNonce });
      const cspNonce = newCspNonce();
      const response =
        !session && !setCookie && isCacheableSiteRequest(request, tenant)
          ? await cachedSitePage(db, request, tenant, cspNonce, render, (p) => ctx.waitUntil(p))
          : await render(cspNonce);
      const isPage = (response.headers.get("Content-Type") ?? "").startsWith("text/html");
      return withSecurityHeaders(response, setCookie, { https, policy: isPage ? pagePolicy(cspNonce) : undefined });
    },

    async scheduled(controller, env, ctx) {
      ctx.waitUntil(runCron(controller.cron, env, Date.now()));
    },

    async queue(batch, env, _ctx) {
      if (batch.queue === JOBS_QUEUE_NAME) return runJobBatch(batch, env);
      const db = openDb(env.DB);
      for (const message of batch.messages) {
        const row = queuedMailOf(message.body);
        if (row) {
          const last = message.attempts > MAIL_MAX_RETRIES;
          const outcome = await row
            .send(env, db, row.id, message.attempts, last, Date.now())
            .catch((error: unknown) => (console.error(`${row.what} could not be claimed; will retry`, error), "retry" as const));
          if (outcome === "retry") retryLater(message);
          else message.ack();
          continue;
        }
        const parsed = mailMessageSchema.safeParse(message.body);
        if (!parsed.success) {
          // A malformed message can never succeed; retrying it would only delay the rest.
          console.error("Dropping malformed mail message", parsed.error.issues);
          message.ack();
          continue;
        }
        try {
          await deliverMail(env, db, parsed.data);
          message.ack();
          await recordDelivery(db, parsed.data, "sent").catch((error: unknown) => console.error("Recording a delivery failed", error));
        } catch (error) {
          // The first delivery is attempt 1; after max_retries more the queue drops it, so the last failure is recorded.
          const last = message.attempts > MAIL_MAX_RETRIES;
          console.error(last ? "Mail delivery failed for the last time" : "Mail delivery failed; will retry", error);
          if (last) await recordDelivery(db, parsed.data, "failed").catch((e: unknown) => console.error("Recording a failed delivery failed", e));
          retryLater(message);
        }
      }
    },
  } satisfies ExportedHandler<Env, unknown>;
}

/** The www or bare partner of a site's primary domain: the same path on the primary, for good (308 keeps the method). */
function primaryDomainRedirect(request: Request, env: Env, to: string): Response {
  const url = new URL(request.url);
  return new Response(null, { status: 308, headers: { Location: `${originOf(env, to)}${url.pathname}${url.search}`, "Cache-Control": "no-store" } });
}

/** Any hostname that is neither ours nor a registered site: say so plainly, with nothing of any tenant on it. */
function unknownHostPage(hostname: string): Response {
  const host = escapeHtml(hostname);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>No site here</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:15vh auto;padding:0 1rem;color:#111827}h1{font-size:1.5rem}code{background:#f3f4f6;padding:.1rem .3rem;border-radius:.25rem}</style>
</head><body><main><h1>No site is at this address</h1>
<p>There is no club site at <code>${host}</code>. Check the address, or ask the organiser for the right link.</p></main></body></html>`;
  return new Response(html, { status: 404, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}
