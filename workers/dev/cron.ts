/**
 * Local development only (`ENVIRONMENT=development`): runs a cron trigger's work now and answers when it is
 * done. `npm start` calls it each minute for the triggers that are due (scripts/local-cron.ts), since
 * `wrangler dev` does not fire cron triggers; a browser test may call it instead of waiting five minutes.
 */
import * as z from "zod";
import { json } from "../http";
import { runCron } from "../cron";
import type { RequestContext } from "../request-context";

const bodySchema = z.strictObject({ cron: z.string().min(1).max(40) });

export async function handleDevCron(request: Request, context: RequestContext): Promise<Response> {
  if (context.env.ENVIRONMENT !== "development") return json({ error: "not_found" }, { status: 404 });
  if (request.method !== "POST") return json({ error: "method_not_allowed" }, { status: 405, headers: { Allow: "POST" } });
  const body = bodySchema.safeParse(await request.json().catch(() => ({})));
  if (!body.success) return json({ error: "invalid_request", message: body.error.message }, { status: 400 });
  await runCron(body.data.cron, context.env, Date.now());
  return json({ ran: body.data.cron });
}
