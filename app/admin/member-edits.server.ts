/**
 * The division page's writes beyond seasons (decision 0057): reminder settings, adding a member by hand, and
 * a member's own page (corrections, removal). Each parses the form and calls workers/services; a refusal
 * comes back as the form again with its errors.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import * as z from "zod";
import { fieldErrorsOf } from "../../core/entity/field-errors";
import { REMINDER_DAYS, REMINDER_MESSAGES } from "../../core/memberships/reminders";
import { Division } from "../../schema/entities/admin-classes";
import { changeEntity, readVisible, type Caller, type EntityContext, type Refusal } from "../../workers/services/entity-service";
import {
  addMember,
  addMemberSchema,
  changeMembership,
  changePerson,
  fieldTimesSchema,
  MEMBER_EDIT_MESSAGES,
  membershipSchema,
  personSchema,
  removeMember,
} from "../../workers/services/member-edits";
import type { DivisionRow } from "../../workers/services/memberships";
import { errorsOfRefusal } from "./entity-form.server";
import { pageUrl, parseForm, refuse, type PostedForm } from "../forms/posted-form.server";
import type { requireDivisionAccess } from "./memberships.server";

type Access = Awaited<ReturnType<typeof requireDivisionAccess>>;

export function entityAccess(access: Access, context: AppLoadContext): { entityContext: EntityContext; caller: Caller } {
  return {
    entityContext: { env: context.env, tenant: context.tenant, ctx: context.ctx, now: context.now, db: access.db },
    caller: { principal: access.principal, userId: access.session.user.id, appId: "" },
  };
}

/** A refusal's words placed by the form's fields; stale fields get the page's own sentence. */
function refusalErrors(refusal: Refusal, fields: readonly string[]) {
  if (refusal.body.error === "stale") return { form: MEMBER_EDIT_MESSAGES.stale };
  return errorsOfRefusal(refusal.body, fields);
}

const reminderSettingsSchema = z.object({
  is_reminding: z.preprocess((v) => v === "on" || v === "true", z.boolean()),
  reminder_days: z.coerce
    .number(REMINDER_MESSAGES.days)
    .int(REMINDER_MESSAGES.days)
    .min(REMINDER_DAYS.min, REMINDER_MESSAGES.days)
    .max(REMINDER_DAYS.max, REMINDER_MESSAGES.days),
});

/** Turns reminders on or off and sets their lead, through the entity service (the data API's Division rules). */
export async function saveReminderSettings(access: Access, context: AppLoadContext, division: DivisionRow, posted: PostedForm, here: string) {
  const parsed = parseForm(reminderSettingsSchema, posted);
  if (!parsed.ok) return parsed.reply;
  const { entityContext, caller } = entityAccess(access, context);
  const stored = await readVisible(entityContext, caller, Division, division.id);
  if (!stored) throw new Response("Not found", { status: 404 });
  const changed = await changeEntity(entityContext, caller, Division, stored, parsed.value, undefined);
  if (!changed.ok) return refuse(posted, refusalErrors(changed.refusal, ["is_reminding", "reminder_days"]), statusOf(changed.refusal));
  return redirect(pageUrl(here, "saved"));
}

/** Parses a form whose programs are repeated checkboxes (readPostedForm keeps the first of a name only). */
function parseMembership<S extends z.ZodType>(schema: S, posted: PostedForm, form: FormData) {
  const programs = form.getAll("programs").filter((p): p is string => typeof p === "string");
  const parsed = schema.safeParse({ ...posted.values, programs });
  return parsed.success ? ({ ok: true, value: parsed.data } as const) : ({ ok: false, reply: refuse(posted, fieldErrorsOf(parsed.error.issues)) } as const);
}

export async function addMemberByHand(access: Access, context: AppLoadContext, division: DivisionRow, posted: PostedForm, form: FormData) {
  const parsed = parseMembership(addMemberSchema, posted, form);
  if (!parsed.ok) return parsed.reply;
  const { entityContext, caller } = entityAccess(access, context);
  const added = await addMember(entityContext, caller, division, parsed.value);
  if (!added.ok) return refuse(posted, refusalErrors(added.refusal, Object.keys(addMemberSchema.shape)), statusOf(added.refusal));
  return redirect(`/org/${division.id}/members/${added.value.memberId}?saved=added`);
}

export async function editMember(
  access: Access,
  context: AppLoadContext,
  division: DivisionRow,
  memberId: string,
  posted: PostedForm,
  form: FormData,
  here: string,
) {
  const { entityContext, caller } = entityAccess(access, context);
  const base = fieldTimesSchema.safeParse(posted.values.field_mtimes);
  const times = base.success ? base.data : null;
  if (posted.intent === "person") {
    const parsed = parseForm(personSchema, posted);
    if (!parsed.ok) return parsed.reply;
    const changed = await changePerson(entityContext, caller, division, memberId, parsed.value, times);
    return changed.ok
      ? redirect(pageUrl(here, "saved"))
      : refuse(posted, refusalErrors(changed.refusal, Object.keys(personSchema.shape)), statusOf(changed.refusal));
  }
  if (posted.intent === "membership") {
    const parsed = parseMembership(membershipSchema, posted, form);
    if (!parsed.ok) return parsed.reply;
    const changed = await changeMembership(entityContext, caller, division, memberId, parsed.value, times);
    return changed.ok
      ? redirect(pageUrl(here, "saved"))
      : refuse(posted, refusalErrors(changed.refusal, Object.keys(membershipSchema.shape)), statusOf(changed.refusal));
  }
  if (posted.intent === "remove") {
    const removed = await removeMember(entityContext, caller, division, memberId);
    return removed.ok ? redirect(`/org/${division.id}/home?saved=removed`) : refuse(posted, refusalErrors(removed.refusal, []), statusOf(removed.refusal));
  }
  return null;
}

const statusOf = (refusal: Refusal): 400 | 403 | 404 | 409 => (refusal.status === 405 ? 400 : refusal.status);
