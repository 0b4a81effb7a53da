/**
 * The classes of the super-admin areas beyond clubs, forms and races (schema/d1/admin.ts): divisions,
 * newsletters, event pages, series, validation systems, activities, ranking schemes, site pages, points
 * systems, passes, and bank accounts (read only). Equipment is in equipment-classes.ts.
 */
import { RACE_ENTRANTS } from "../../core/newsletters/mailing";
import { PAGE_PATH_MESSAGES } from "../../core/sites/page-paths";
import * as z from "zod";
import { REMINDER_DAYS, REMINDER_MESSAGES } from "../../core/memberships/reminders";
import {
  activities,
  bankAccounts,
  divisions,
  emailNewsletters,
  eventPages,
  passes,
  pointsSeries,
  pointsSystems,
  rankingSchemes,
  sitePages,
  validationSystems,
} from "../d1";
import { seriesConfigSchema } from "../wire/series-config";
import { imageAddress } from "../wire/page-blocks";
import { rankingConfigSchema } from "../wire/ranking-config";
import { createdField, entityClass, field, uuidField } from "./registry";
import { DivisionMember, DivisionPerson } from "./membership-classes";
import { nameText, shortText, longText, code, email, httpUrl, country, year, isoDate, epochMs, clubFields, clubReference, clubOwners } from "./admin-fields";
import { InventoryItem, InventoryType, Serverbox, ShippingDepot, TimingDevice } from "./equipment-classes";

export const Division = entityClass({
  classname: "Division",
  description: "A membership organisation run under a club (the Membership System)",
  area: "divisions",
  table: divisions,
  owners: clubOwners,
  references: clubReference,
  fields: [
    uuidField(divisions.id),
    createdField(divisions.createdAt),
    ...clubFields(divisions),
    field("name", divisions.name, "string", { schema: nameText }),
    field("sport", divisions.sport, "string", { schema: shortText }),
    field("country", divisions.country, "string", { schema: country }),
    field("email", divisions.email, "string", { schema: email }),
    field("website", divisions.website, "string", { schema: httpUrl }),
    field("logo", divisions.logo, "string", { schema: httpUrl }),
    field("info", divisions.info, "string", { schema: longText }),
    field("programs_list", divisions.programsList, "json", { schema: z.array(z.string().trim().min(1).max(100)).max(100) }),
    field("nqc_expire_time", divisions.nqcExpireTime, "time", { schema: epochMs }),
    // Expiry reminders (decision 0057): on by default, sent this many days before a membership ends.
    field("is_reminding", divisions.isReminding, "bool"),
    field("reminder_days", divisions.reminderDays, "int", {
      schema: z.number().int().min(REMINDER_DAYS.min, REMINDER_MESSAGES.days).max(REMINDER_DAYS.max, REMINDER_MESSAGES.days),
    }),
  ],
});

const elementText = z.string().trim().min(1).max(10_000);
/** The blocks of a newsletter (spec: header, image, text, action button, logo), each with what it needs. */
const newsletterElementSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("header"), text: elementText }),
  z.strictObject({ type: z.literal("text"), text: elementText }),
  z.strictObject({ type: z.literal("image"), image_url: httpUrl, url: httpUrl.optional(), text: shortText.optional() }),
  z.strictObject({ type: z.literal("button"), text: nameText, url: httpUrl }),
  z.strictObject({ type: z.literal("logo"), image_url: httpUrl.optional(), url: httpUrl.optional() }),
]);

/** Who receives a newsletter: the club's current members, the paid registrants of the listed forms, the entrants of the listed races. */
const newsletterAudienceSchema = z.strictObject({
  members: z.boolean(),
  registrations: z.array(z.uuid()).max(50),
  races: z.array(z.uuid()).max(50).optional(),
  entrants: z.enum(RACE_ENTRANTS).optional(),
  // Of the races' entrants, only those on these courses (ids of the races' courses) and in these categories (decision 0062).
  courses: z.array(z.string().min(1).max(64)).max(100).optional(),
  categories: z.array(z.string().trim().min(1).max(200)).max(100).optional(),
});

export const EmailNewsletter = entityClass({
  classname: "EmailNewsletter",
  description: "A newsletter a club sends to its members",
  area: "emails",
  table: emailNewsletters,
  owners: clubOwners,
  references: clubReference,
  fields: [
    uuidField(emailNewsletters.id),
    createdField(emailNewsletters.createdAt),
    ...clubFields(emailNewsletters),
    field("subject", emailNewsletters.subject, "string", { schema: nameText }),
    field("communication_type", emailNewsletters.communicationType, "string", {
      schema: z.string().regex(/^[a-z][a-z_]{0,39}$/, "communication_type is a lowercase word"),
    }),
    field("elements", emailNewsletters.elements, "json", { schema: z.array(newsletterElementSchema).max(50) }),
    // Setting it schedules the newsletter; it is sent once the time has passed (the spec; decision 0049).
    field("sent_time", emailNewsletters.sentTime, "time", { schema: epochMs.nullable() }),
    field("audience", emailNewsletters.audience, "json", { schema: newsletterAudienceSchema }),
  ],
});

/** An event page's address under /events/: what a person can type and share, with no escaping needed. */
const eventPathSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,99}$/, "An event's address (page_url) is up to 100 lowercase letters, digits and hyphens, starting with a letter or digit");
const linkedIds = z.array(z.guid("Each linked race or form is named by its uuid")).max(50, "An event links at most 50 races or forms");

export const EventPage = entityClass({
  classname: "EventPage",
  description: "A public page for an event that spans races and registrations",
  area: "eventpages",
  table: eventPages,
  owners: clubOwners,
  references: clubReference,
  fields: [
    uuidField(eventPages.id),
    createdField(eventPages.createdAt),
    ...clubFields(eventPages),
    field("name", eventPages.name, "string", { schema: nameText }),
    field("title", eventPages.title, "string", { schema: shortText }),
    field("year", eventPages.year, "int", { schema: year }),
    field("start_date", eventPages.startDate, "string", { schema: isoDate }),
    field("end_date", eventPages.endDate, "string", { schema: isoDate }),
    // The page is served at /events/{page_url} on the club's site, so the address must be safe in a URL as it is.
    field("page_url", eventPages.pageUrl, "string", { schema: eventPathSchema }),
    field("description", eventPages.description, "string", { schema: longText }),
    field("sport", eventPages.sport, "string", { schema: shortText }),
    // A web address, or a banner uploaded to the site (/media/…, decision 0056).
    field("banner_url", eventPages.bannerUrl, "string", { schema: imageAddress(/^https?$/, "A banner is a web address (https://…) or an uploaded image") }),
    field("header_option", eventPages.headerOption, "string", { schema: z.enum(["banner", "title", "none"]) }),
    field("is_public", eventPages.isPublic, "bool"),
    field("event_status", eventPages.eventStatus, "string", { schema: z.enum(["scheduled", "postponed", "cancelled"]) }),
    field("location", eventPages.location, "string", { schema: shortText }),
    // Which of the club's races and forms the page links to; the rule checks they are the club's (decision 0046).
    field("race_ids", eventPages.raceIds, "json", { schema: linkedIds }),
    field("registration_ids", eventPages.registrationIds, "json", { schema: linkedIds }),
  ],
});

export const PointsSeries = entityClass({
  classname: "PointsSeries",
  description: "A race series whose results add up to series points",
  area: "pointsseries",
  table: pointsSeries,
  owners: clubOwners,
  references: clubReference,
  fields: [
    uuidField(pointsSeries.id),
    createdField(pointsSeries.createdAt),
    ...clubFields(pointsSeries),
    field("name", pointsSeries.name, "string", { schema: nameText }),
    field("year", pointsSeries.year, "int", { schema: year }),
    field("config", pointsSeries.config, "json", { schema: seriesConfigSchema }),
    field("is_public", pointsSeries.isPublic, "bool"),
    field("url", pointsSeries.url, "string", { schema: httpUrl }),
    // Written by the points file upload on the standings page (workers/services/series-points-file.ts).
    field("last_points_file", pointsSeries.lastPointsFile, "string", { writable: false }),
  ],
});

/** A pattern a number must match: it must compile, and stays short so checking a number stays cheap. */
const patternSchema = z
  .string()
  .min(1)
  .max(200)
  .superRefine((pattern, ctx) => {
    try {
      new RegExp(pattern);
    } catch {
      ctx.addIssue({ code: "custom", message: "pattern is not a valid regular expression" });
    }
  });

export const ValidationSystem = entityClass({
  classname: "ValidationSystem",
  description: "A rule membership or licence numbers must meet: a list the club keeps, or a pattern",
  area: "validation",
  table: validationSystems,
  owners: clubOwners,
  references: clubReference,
  fields: [
    uuidField(validationSystems.id),
    createdField(validationSystems.createdAt),
    ...clubFields(validationSystems),
    field("name", validationSystems.name, "string", { schema: nameText }),
    field("kind", validationSystems.kind, "string", { schema: z.enum(["list", "pattern"]) }),
    field("pattern", validationSystems.pattern, "string", { schema: patternSchema }),
    field("description", validationSystems.description, "string", { schema: z.string().max(5000) }),
    field("is_active", validationSystems.isActive, "bool"),
  ],
});

export const Activity = entityClass({
  classname: "Activity",
  description: "An activity a club offers; one with no club is platform-wide",
  area: "activities",
  table: activities,
  owners: clubOwners,
  // A platform-wide activity is there for every club to use, so every club may read it (decision 0057).
  platformWide: { field: "club" },
  references: clubReference,
  fields: [
    uuidField(activities.id),
    createdField(activities.createdAt),
    ...clubFields(activities),
    field("name", activities.name, "string", { schema: nameText }),
    field("sport", activities.sport, "string", { schema: shortText }),
    field("description", activities.description, "string", { schema: z.string().max(5000) }),
    field("is_active", activities.isActive, "bool"),
  ],
});

export const RankingScheme = entityClass({
  classname: "RankingScheme",
  description: "How racers are ranked for seeding over a season",
  area: "rankingschemes",
  table: rankingSchemes,
  owners: clubOwners,
  references: clubReference,
  fields: [
    uuidField(rankingSchemes.id),
    createdField(rankingSchemes.createdAt),
    ...clubFields(rankingSchemes),
    field("name", rankingSchemes.name, "string", { schema: nameText }),
    field("sport", rankingSchemes.sport, "string", { schema: shortText }),
    field("season", rankingSchemes.season, "string", { schema: code(50) }),
    field("method", rankingSchemes.method, "string", { schema: z.enum(["fis_points", "points_table", "custom"]) }),
    field("is_public", rankingSchemes.isPublic, "bool"),
    field("config", rankingSchemes.config, "json", { schema: rankingConfigSchema }),
  ],
});

/** "/", or "/" and lowercase segments that start with a letter or digit (no "//", no "..", no trailing "/"). */
const pagePath = z
  .string()
  .max(200)
  .regex(/^\/(?:[a-z0-9][a-z0-9._-]*(?:\/[a-z0-9][a-z0-9._-]*)*)?$/, PAGE_PATH_MESSAGES.shape);

export const Page = entityClass({
  classname: "Page",
  description: "A content page of a whitelabel site, served at its path",
  area: "pages",
  table: sitePages,
  owners: { siteId: "site", clubId: "club" },
  // A page with a club is on that club's site (copied over the one sent), so a club admin writes only there.
  references: [{ field: "site", classname: "WhitelabelSite", copy: {} }, ...clubReference],
  fields: [
    uuidField(sitePages.id),
    createdField(sitePages.createdAt),
    field("site", sitePages.siteId, "string", { createOnly: true }),
    field("club", sitePages.clubId, "string", { createOnly: true }),
    field("title", sitePages.title, "string", { schema: nameText }),
    field("path", sitePages.path, "string", { schema: pagePath }),
    field("body", sitePages.body, "string", { schema: z.string().max(100_000) }),
    field("title_fr", sitePages.titleFr, "string", { schema: nameText.nullable() }),
    field("body_fr", sitePages.bodyFr, "string", { schema: z.string().max(100_000).nullable() }),
    field("is_published", sitePages.isPublished, "bool"),
  ],
});

export const PointsSystem = entityClass({
  classname: "PointsSystem",
  description: "How results turn into points: a table by place or a formula; one with no club is platform-wide",
  area: "points",
  table: pointsSystems,
  owners: clubOwners,
  platformWide: { field: "club" },
  references: clubReference,
  fields: [
    uuidField(pointsSystems.id),
    createdField(pointsSystems.createdAt),
    ...clubFields(pointsSystems),
    field("name", pointsSystems.name, "string", { schema: nameText }),
    field("method", pointsSystems.method, "string", { schema: z.enum(["table", "formula"]) }),
    field("points_table", pointsSystems.pointsTable, "json", { schema: z.array(z.number().int().min(0).max(1_000_000)).max(500) }),
    // Arithmetic over named values only; it is evaluated by the points engine, never as code.
    field("formula", pointsSystems.formula, "string", {
      schema: z
        .string()
        .trim()
        .max(500)
        .regex(/^[A-Za-z0-9_+\-*/^().,\s]*$/, "formula may hold names, numbers, + - * / ^ and brackets"),
    }),
    field("best_of", pointsSystems.bestOf, "int", { schema: z.number().int().min(1).max(1000) }),
    field("ties", pointsSystems.ties, "string", { schema: z.enum(["share", "split"]) }),
    field("scale_per_race", pointsSystems.scalePerRace, "bool"),
  ],
});

export const Pass = entityClass({
  classname: "Pass",
  description: "A season pass or member card a club issues to one holder",
  area: "passes",
  table: passes,
  owners: clubOwners,
  references: clubReference,
  fields: [
    uuidField(passes.id),
    createdField(passes.createdAt),
    ...clubFields(passes),
    field("kind", passes.kind, "string", { schema: z.enum(["pass", "member_card"]) }),
    field("holder_name", passes.holderName, "string", { schema: nameText }),
    field("holder_email", passes.holderEmail, "string", { schema: email }),
    field("season", passes.season, "string", { schema: code(50) }),
    field("number", passes.number, "string", { schema: code(50) }),
    field("valid_from", passes.validFrom, "string", { schema: isoDate }),
    field("valid_until", passes.validUntil, "string", { schema: isoDate }),
    field("revoked_time", passes.revokedTime, "time", { schema: epochMs }),
    field("revoke_reason", passes.revokeReason, "string", { schema: code(300) }),
    field("lang", passes.lang, "string", { schema: z.enum(["en", "fr"], "Choose English or French") }),
  ],
});

export const BankAccount = entityClass({
  classname: "BankAccount",
  description: "Where a club is paid (remittance) or the merchant account it charges through",
  area: "bankaccounts",
  table: bankAccounts,
  owners: { clubId: "club" },
  // Accounts are made by the approval of a PendingBankAccount, never through this API.
  readOnly: true,
  fields: [
    uuidField(bankAccounts.id),
    createdField(bankAccounts.createdAt),
    field("name", bankAccounts.name, "string"),
    field("display_name", bankAccounts.displayName, "string"),
    field("user", bankAccounts.userId, "string"),
    field("club", bankAccounts.clubId, "string"),
    field("kind", bankAccounts.kind, "string"),
    field("account_last4", bankAccounts.accountLast4, "string"),
  ],
});

export { DivisionMember, DivisionPerson };

export const adminEntityClasses = [
  BankAccount,
  Division,
  DivisionMember,
  DivisionPerson,
  TimingDevice,
  Serverbox,
  EmailNewsletter,
  ShippingDepot,
  InventoryType,
  InventoryItem,
  EventPage,
  PointsSeries,
  ValidationSystem,
  Activity,
  RankingScheme,
  Page,
  PointsSystem,
  Pass,
] as const;
