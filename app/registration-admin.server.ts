/**
 * Server code of the registration form builder (/registration/:id/admin/*), the club's list of forms
 * (/club/registrations) and the approval queue (/_admin/registrations): the guards, the saved notices,
 * wall-clock times in the club's zone, the settings form and the element list as the pages show it.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { eq, inArray } from "drizzle-orm";
import * as z from "zod";
import { can, effectiveRoles, type Action, type Principal } from "../core/access/policy";
import { labelIn } from "../core/forms/bilingual";
import { timeOrderErrors } from "../core/registration/settings-rules";
import { fieldErrorsOf, type FieldErrors } from "../core/entity/field-errors";
import { FORM_MESSAGES } from "../core/forms/messages";
import type { FormElement } from "../core/forms/model";
import { formatMoney, parseMoney } from "../core/money/money";
import { parseCalendarDate } from "../core/registration/age";
import { approvalNoteOf, registrationStatus, type RegistrationStatus } from "../core/registration/status";
import { PEOPLE_LABEL_KEYS, PEOPLE_LABEL_MAX, peopleLabelParts, storedPeopleLabels } from "../core/registration/people-labels";
import { clubs, openDb, registrations, type Db } from "../schema/d1";
import { principalOf } from "../workers/services/race-access";
import { epochOfLocalInput, isTimeZone, localInputOf } from "../core/time/wall-clock";
import { canOnRegistration, getRegistration, type BuilderContext, type RegistrationRow } from "../workers/services/registration-forms";
import { requireSession } from "./auth.server";
import { FIELD_TYPE_LABELS } from "./components/form-builder-choices";

export type AdminRegistration = RegistrationRow & { clubName: string };

export interface RegistrationAccess {
  registration: AdminRegistration;
  principal: Principal;
  builder: BuilderContext;
  /** What the caller may do here, for showing only the tools they can use. */
  may: { view: true; edit: boolean; finance: boolean; reports: boolean; people: boolean };
}

function builderOf(context: AppLoadContext, db: Db): BuilderContext {
  return { env: context.env, tenant: context.tenant, ctx: context.ctx, now: context.now, db, userId: context.session?.user.id ?? null };
}

/**
 * The guard of every builder page and action: a signed-in user whose roles allow `action` on this form
 * (Registration Form Admin of it, All Registrations or Organization Admin of its club, Site Administrator
 * of its site, a System Administrator with the registrations flag). A form they cannot see is a 404; a
 * tool they may not use a 403.
 */
export async function requireRegistrationAccess(
  request: Request,
  context: AppLoadContext,
  rawId: string | undefined,
  action: Action,
): Promise<RegistrationAccess> {
  const session = requireSession(request, context);
  const db = openDb(context.env.DB);
  const id = z.uuid().safeParse(rawId);
  const registration = id.success ? await getRegistration(db, context.tenant, id.data) : null;
  const principal = (await principalOf(db, session))!;
  if (!registration || !canOnRegistration(principal, "view", registration)) throw new Response("Not found", { status: 404 });
  if (!canOnRegistration(principal, action, registration)) throw new Response("Forbidden", { status: 403 });
  return {
    registration,
    principal,
    builder: builderOf(context, db),
    may: {
      view: true,
      edit: canOnRegistration(principal, "edit", registration),
      finance: canOnRegistration(principal, "finance", registration),
      reports: canOnRegistration(principal, "view_reports", registration),
      people: canOnRegistration(principal, "administer", registration),
    },
  };
}

/** The signed-in principal with a database and builder context, for the pages that are not about one form. */
export async function requirePrincipal(request: Request, context: AppLoadContext) {
  const session = requireSession(request, context);
  const db = openDb(context.env.DB);
  const principal = (await principalOf(db, session))!;
  return { db, principal, builder: builderOf(context, db) };
}

/**
 * The approval queue is for System Administrators with the registrations flag, on the admin host only.
 * Checking an object with no owner passes only roles that reach every form, so an Organization Admin
 * (who may "administer" its own club's forms) can never approve its own form here.
 */
export async function requireRegistrationReviewer(request: Request, context: AppLoadContext) {
  if (context.tenant.kind !== "admin") throw new Response("Not found", { status: 404 });
  const access = await requirePrincipal(request, context);
  const isSuperAdmin = effectiveRoles(access.principal).some((role) => role.type === "system_admin");
  if (!isSuperAdmin || !can(access.principal, "administer", { area: "registrations" })) throw new Response("Forbidden", { status: 403 });
  return access;
}

// ---------------------------------------------------------------------------------------------------------
// Notices carried in the address after a change (?saved=…), shown once

const NOTICES = {
  created: "Form created. Add its first field below.",
  added: "Field added. Set it up here.",
  saved: "Your changes are saved.",
  synced: "The race's racers now match this form's registrations.",
  moved: "Moved.",
  waitlistRemoved: "Taken off the waitlist. Any place held for them goes to the next person.",
  deleted: "Field deleted.",
  submitted: "Submitted for approval. A System Administrator will review the form.",
  approve: "Approved: the form is live.",
  requireChanges: "Sent back: changes required.",
  recommendChanges: "Sent back: changes recommended.",
  invited: "Invitation sent.",
  withdrawn: "Invitation withdrawn.",
  revoked: "Role taken back.",
} as const;

export type NoticeKey = keyof typeof NOTICES;

export function noticeOf(request: Request): string | null {
  const key = new URL(request.url).searchParams.get("saved");
  return key && key in NOTICES ? NOTICES[key as NoticeKey] : null;
}

export function withNotice(path: string, notice: NoticeKey): string {
  return `${path}?saved=${notice}`;
}

// ---------------------------------------------------------------------------------------------------------
// Status and times

export function statusOf(registration: Pick<RegistrationRow, "isApproved" | "isPending" | "approvalStatus">): { status: RegistrationStatus; note: string } {
  const status = registrationStatus({ is_approved: registration.isApproved, is_pending: registration.isPending, approval_status: registration.approvalStatus });
  return { status, note: approvalNoteOf(registration.approvalStatus) };
}

/** A club may still be sent back for changes while it waits, but only these states can be submitted. */
export const SUBMITTABLE: readonly RegistrationStatus[] = ["Test Mode", "Changes Required", "Changes Recommended"];

/** The zone a form's times are typed in: its club's, else UTC. */
export function zoneOrUtc(timezone: string | null | undefined): string {
  return timezone && isTimeZone(timezone) ? timezone : "UTC";
}

export async function clubZone(db: Db, clubId: string): Promise<string> {
  const [club] = await db.select({ timezone: clubs.timezone }).from(clubs).where(eq(clubs.id, clubId)).limit(1);
  return zoneOrUtc(club?.timezone);
}

/** The zone of each listed form, by form id. */
export async function zonesOfForms(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: registrations.id, timezone: clubs.timezone })
    .from(registrations)
    .innerJoin(clubs, eq(clubs.id, registrations.clubId))
    .where(inArray(registrations.id, [...ids]));
  return new Map(rows.map((r) => [r.id, zoneOrUtc(r.timezone)]));
}

/** "2026-06-01 09:30" on the zone's wall clock, or "" for no time. */
export function wallClockText(epochMs: number | null, zone: string): string {
  return epochMs === null ? "" : localInputOf(epochMs, zone).replace("T", " ");
}

// ---------------------------------------------------------------------------------------------------------
// Settings

/** A datetime-local value on the zone's wall clock as epoch ms; blank is null. */
function localTime(zone: string) {
  return z
    .string()
    .default("")
    .transform((raw, ctx) => {
      if (raw.trim() === "") return null;
      const epoch = epochOfLocalInput(raw, zone);
      if (epoch === null) ctx.addIssue({ code: "custom", message: "Enter a date and time" });
      return epoch;
    });
}

const checkbox = z
  .string()
  .optional()
  .transform((v) => v === "on" || v === "true");

/** One people label input: a word or two, without the square brackets the bilingual tags use. */
const peopleLabel = z
  .string()
  .default("")
  .transform((v) => v.trim())
  .pipe(
    z
      .string()
      .max(PEOPLE_LABEL_MAX, `At most ${PEOPLE_LABEL_MAX} characters`)
      .regex(/^[^[\]]*$/, "Square brackets are not allowed"),
  );

function settingsFormSchema(zone: string) {
  return z
    .object({
      name: z
        .string()
        .default("")
        .transform((v) => v.trim())
        .pipe(z.string().min(1, "Give the form a name").max(200, "At most 200 characters")),
      open_time: localTime(zone),
      close_time: localTime(zone),
      raise_price_1_time: localTime(zone),
      raise_price_2_time: localTime(zone),
      gst_rate: z
        .string()
        .default("")
        .transform((raw, ctx) => {
          const text = raw.trim().replace(/%$/, "");
          const value = text === "" ? 0 : Number(text);
          if (!/^\d*\.?\d*$/.test(text) || !Number.isFinite(value) || value < 0 || value > 100)
            ctx.addIssue({ code: "custom", message: "Enter a percentage from 0 to 100" });
          return value;
        }),
      is_bilingual: checkbox,
      // Checked against the form's own text fields by the page (nameFieldErrors).
      first_name_field_id: z
        .string()
        .default("")
        .transform((v) => v || null),
      last_name_field_id: z
        .string()
        .default("")
        .transform((v) => v || null),
      tags: z
        .string()
        .default("")
        .transform((text) => [
          ...new Set(
            text
              .split(",")
              .map((tag) => tag.trim())
              .filter((tag) => tag !== ""),
          ),
        ])
        .pipe(z.array(z.string().max(100, "Each tag can be at most 100 characters")).max(50, "At most 50 tags")),
      age_calc_date: z
        .string()
        .default("")
        .transform((raw, ctx) => {
          const text = raw.trim();
          if (text === "") return null;
          if (parseCalendarDate(text) === null) ctx.addIssue({ code: "custom", message: FORM_MESSAGES.invalidDate });
          return text;
        }),
      people_label_singular: peopleLabel,
      people_label_plural: peopleLabel,
      people_label_singular_fr: peopleLabel,
      people_label_plural_fr: peopleLabel,
    })
    .transform(({ people_label_singular, people_label_plural, people_label_singular_fr, people_label_plural_fr, ...rest }) => ({
      ...rest,
      people_labels: storedPeopleLabels({
        singular: { en: people_label_singular, fr: people_label_singular_fr },
        plural: { en: people_label_plural, fr: people_label_plural_fr },
      }),
    }));
}

/**
 * The order of the times (core/registration/settings-rules.ts), checked on its own so its messages show
 * together with any other field's (zod skips an object's refinements once a field has failed).
 */
function timeOrderOfInputs(values: Record<string, string>, zone: string): FieldErrors {
  const at = (name: string) => (values[name]?.trim() ? epochOfLocalInput(values[name]!, zone) : null);
  return timeOrderErrors({
    open_time: at("open_time"),
    close_time: at("close_time"),
    raise_price_1_time: at("raise_price_1_time"),
    raise_price_2_time: at("raise_price_2_time"),
  });
}

export type SettingsChanges = z.output<ReturnType<typeof settingsFormSchema>>;

/** The settings form as Registration fields (API names), or every field's error. */
export function parseSettings(values: Record<string, string>, zone: string): { ok: true; value: SettingsChanges } | { ok: false; errors: FieldErrors } {
  const parsed = settingsFormSchema(zone).safeParse(values);
  const errors: FieldErrors = parsed.success ? {} : fieldErrorsOf(parsed.error.issues);
  // A field's own message (an unreadable time) comes first; the order is said when the times can be read.
  for (const [key, message] of Object.entries(timeOrderOfInputs(values, zone))) errors[key] ??= message;
  return parsed.success && Object.keys(errors).length === 0 ? { ok: true, value: parsed.data } : { ok: false, errors };
}

/** The settings form's values for a form, as its inputs show them. */
export function settingsValuesOf(registration: RegistrationRow, zone: string): Record<string, string> {
  return {
    name: registration.name,
    open_time: registration.openTime === null ? "" : localInputOf(registration.openTime, zone),
    close_time: registration.closeTime === null ? "" : localInputOf(registration.closeTime, zone),
    raise_price_1_time: registration.raisePrice1Time === null ? "" : localInputOf(registration.raisePrice1Time, zone),
    raise_price_2_time: registration.raisePrice2Time === null ? "" : localInputOf(registration.raisePrice2Time, zone),
    gst_rate: String(registration.gstRate),
    is_bilingual: registration.isBilingual ? "on" : "",
    first_name_field_id: registration.firstNameFieldId ?? "",
    last_name_field_id: registration.lastNameFieldId ?? "",
    tags: registration.tags.join(", "),
    age_calc_date: registration.ageCalcDate ?? "",
    ...Object.fromEntries(
      PEOPLE_LABEL_KEYS.flatMap((key) => {
        const parts = peopleLabelParts(registration.peopleLabels, key);
        return [
          [`people_label_${key}`, parts.en],
          [`people_label_${key}_fr`, parts.fr],
        ];
      }),
    ),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The element list

export interface ElementRow {
  id: string;
  typeLabel: string;
  caption: string;
  prices: (string | null)[];
  flags: string[];
}

export function elementRowOf(element: FormElement): ElementRow {
  const flags = [
    element.is_mandatory ? "mandatory" : null,
    element.is_admin_only ? "admin-only" : null,
    element.is_kiosk_mode ? "kiosk" : null,
    element.is_taxable ? "taxable" : null,
    element.condition ? "conditional" : null,
  ].filter((flag): flag is string => flag !== null);
  return {
    id: element.id,
    typeLabel: FIELD_TYPE_LABELS[element.type],
    caption: labelIn(element.caption, "en"),
    prices: [element.price_1, element.price_2, element.price_3].map((p) => (p == null ? null : formatMoney(p))),
    flags,
  };
}

/** Fields a discount can apply to: those with a price of their own or on an option, and money fields. */
export function isPriced(element: FormElement): boolean {
  const hasPrice = (item: { price_1?: number | null; price_2?: number | null; price_3?: number | null }) =>
    item.price_1 != null || item.price_2 != null || item.price_3 != null;
  return hasPrice(element) || element.options_list.some(hasPrice) || element.type === "donation" || element.type === "membership";
}

/** The self-service cancellation policy as the settings page posts it: blank percent means registrants cannot cancel. */
export function cancelPolicySchema(zone: string) {
  return z.object({
    cancel_refund_percent: z
      .string()
      .default("")
      .transform((raw, ctx) => {
        if (raw.trim() === "") return null;
        const percent = Number(raw.trim());
        if (!Number.isInteger(percent) || percent < 0 || percent > 100) ctx.addIssue({ code: "custom", message: "Enter a whole percent from 0 to 100" });
        return percent;
      }),
    cancel_fee: z
      .string()
      .default("")
      .transform((raw, ctx) => {
        if (raw.trim() === "") return 0;
        const cents = parseMoney(raw);
        if (cents === null || cents < 0) ctx.addIssue({ code: "custom", message: "Enter an amount such as 5.00" });
        return cents ?? 0;
      }),
    cancel_deadline: localTime(zone),
  });
}

export function cancelPolicyValuesOf(registration: RegistrationRow, zone: string): Record<string, string> {
  return {
    cancel_refund_percent: registration.cancelRefundPercent === null ? "" : String(registration.cancelRefundPercent),
    cancel_fee: registration.cancelFee ? formatMoney(registration.cancelFee) : "",
    cancel_deadline: registration.cancelDeadline === null ? "" : localInputOf(registration.cancelDeadline, zone),
  };
}
