/**
 * The server half of the form kit (the components are in app/components/form-kit.tsx): a posted form read
 * as text with its intent and target, parsed with a zod schema, and answered either by redirecting back to
 * the page with a notice (post/redirect/get) or by showing the form again with its errors and what was typed.
 */
import { data, redirect } from "@remix-run/cloudflare";
import type { z } from "zod";
import { fieldErrorsOf } from "../../core/entity/field-errors";
import type { FieldErrors, SetupReply } from "../components/form-kit";

export interface PostedForm {
  intent: string;
  target: string | null;
  values: Record<string, string>;
  /** Files of a multipart form (an uploaded logo), by field name. */
  files: Record<string, File>;
}

/** The posted fields as text (the first of a repeated name), with the intent and the document it is about. */
export async function readPostedForm(request: Request): Promise<PostedForm> {
  // A body that is no form (a broken multipart) is the sender's mistake: 400, never a 500.
  const form = await request.formData().catch(() => {
    throw new Response("The form could not be read", { status: 400 });
  });
  const values: Record<string, string> = {};
  const files: Record<string, File> = {};
  for (const [key, value] of form) {
    if (typeof value === "string") values[key] ??= value;
    else files[key] ??= value;
  }
  return { intent: values.intent ?? "", target: values.target || null, values, files };
}

/** A refused form: its errors and what was typed, so the page shows the form again as it was sent. */
export function refuse(posted: PostedForm, errors: FieldErrors, status: 400 | 403 | 404 | 409 | 429 | 502 = 400) {
  const { intent: _intent, target: _target, ...values } = posted.values;
  return data<SetupReply>({ intent: posted.intent, target: posted.target, errors, values }, { status });
}

/** Parses a form with a schema; a refusal (400 with the field errors) when it does not fit. */
export function parseForm<S extends z.ZodType>(
  schema: S,
  posted: PostedForm,
): { ok: true; value: z.output<S> } | { ok: false; reply: ReturnType<typeof refuse> } {
  const parsed = schema.safeParse(posted.values);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, reply: refuse(posted, fieldErrorsOf(parsed.error.issues)) };
}

/**
 * A save result from the RaceRoom: the page again (PRG) on success, or the room's errors. An error about
 * a field the form has is shown next to it; one about anything else (a list entry) above the form.
 */
export function afterSave(posted: PostedForm, result: { ok: true } | { ok: false; errors: FieldErrors }, to: string) {
  if (result.ok) return redirect(to);
  const errors: FieldErrors = {};
  for (const [key, message] of Object.entries(result.errors)) {
    if (key in posted.values && key !== "intent" && key !== "target") errors[key] ??= message;
    else errors.form ??= message;
  }
  return refuse(posted, errors);
}

export const unknownIntent = (posted: PostedForm) => refuse(posted, { form: "Unknown action" });

/** What the page address asks for: the document being edited or deleted, and a one-time notice. */
export function pageQuery(request: Request) {
  const params = new URL(request.url).searchParams;
  return {
    edit: params.get("edit"),
    remove: params.get("delete"),
    credential: params.get("credential"),
    saved: noticeOf(params.get("saved")),
    confirm: params.get("confirm"),
  };
}

const NOTICES: Record<string, string> = {
  created: "Created.",
  saved: "Your changes are saved.",
  deleted: "Deleted.",
  added: "Added.",
  grouped: "Result groups created from racer fields. Groups of the same name were replaced, not repeated.",
  removed: "Removed.",
  moved: "Moved.",
  seeded: "Heats seeded from the qualifier.",
  recorded: "Heat result saved.",
  cleared: "Heat result cleared.",
  invited: "Invitation sent.",
  withdrawn: "Invitation withdrawn.",
  revoked: "Role taken back.",
  stripeReturned: "Back from Stripe: the card payment status below is up to date.",
  stripeUnreachable: "Stripe could not be reached, so the card payment status below may be out of date. Please try again in a moment.",
  domainAdded: "Domain added. Create the DNS records below at your domain's DNS provider.",
  domainChecked: "Checked with Cloudflare: the domains' status below is up to date.",
  domainUnreachable: "Cloudflare could not be asked just now, so the status below may be out of date. Please try again in a moment.",
  domainPrimary: "Primary domain chosen.",
  domainRemoved: "Domain removed.",
  passIssued: "Card issued.",
  passRevoked: "Card revoked.",
  cardSent: "The card was sent again.",
  paired: "Serverbox paired. It receives its token at its next poll.",
  pairingCancelled: "Pairing cancelled. The serverbox is told so at its next poll.",
  serverRevoked: "Server revoked. Its token no longer works; pair it again to use it.",
  chipReplaced: "Chip replaced: later reads of the new chip are this racer's.",
};

function noticeOf(key: string | null): string | null {
  return key ? (NOTICES[key] ?? null) : null;
}

/** A page's address with a notice (and, optionally, the document still open for editing). */
export function pageUrl(base: string, saved: keyof typeof NOTICES, edit?: string | null): string {
  const params = new URLSearchParams();
  if (edit) params.set("edit", edit);
  params.set("saved", saved);
  return `${base}?${params}`;
}
