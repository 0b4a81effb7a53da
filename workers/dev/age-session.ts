/**
 * Local development only (`ENVIRONMENT=development`): moves the calling session's last full sign-in
 * `minutes` into the past, so a browser test can reach the re-authentication prompt without waiting five
 * minutes. It can only make the caller's own session less trusted, never more. Production answers 404.
 */
import { eq } from "drizzle-orm";
import * as z from "zod";
import { sessions } from "../../schema/d1";
import { json } from "../http";
import type { RequestContext } from "../request-context";

const bodySchema = z
  .object({
    minutes: z
      .number()
      .int()
      .min(1)
      .max(60 * 24),
  })
  .strict();

export async function handleDevAgeSession(request: Request, context: RequestContext): Promise<Response> {
  if (context.env.ENVIRONMENT !== "development") return json({ error: "not_found" }, { status: 404 });
  if (request.method !== "POST") return json({ error: "method_not_allowed" }, { status: 405, headers: { Allow: "POST" } });
  if (!context.session) return json({ error: "unauthorized" }, { status: 401 });
  const body = bodySchema.safeParse(await request.json().catch(() => ({})));
  if (!body.success) return json({ error: "invalid_request", message: body.error.message }, { status: 400 });
  const target = context.now - body.data.minutes * 60_000;
  // Only ever backwards: a never-verified or older session stays as it is.
  const current = context.session.verifiedAt;
  const verifiedAt = current === null ? null : Math.min(current, target);
  await context.db.update(sessions).set({ verifiedAt }).where(eq(sessions.id, context.session.id));
  return json({ verified_at: verifiedAt });
}
