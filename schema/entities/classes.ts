/**
 * Every class the data service exposes. Later issues add theirs here (carts, transactions, courses, …);
 * the generic API picks them up with no other change.
 */
import * as z from "zod";
import { APP_LIMITS, redirectUriProblem } from "../../core/access/app-registration";
import { isScope } from "../../core/access/scopes";
import { apiApplications, carts, clubs, formElements, individuals, races, registrations, roles, sites, users } from "../d1";
import { siteConfigSchema } from "../wire/site-config";
import { adminEntityClasses } from "./admin-classes";
import { gochipEntityClasses } from "./gochip-classes";
import { collectionName, createdField, entityClass, field, uuidField, type EntityClass, type EntityField } from "./registry";
import { elementConfigSchema, formOptionSchema, logicKeySchema } from "../../core/forms/element-schema";
import { FIELD_TYPES, FORM_LIMITS, MEMBER_CLASSES } from "../../core/forms/model";
import { qstNumberSchema, taxNumberSchema } from "../../core/payments/tax-number";
import { raceOptionLinksSchema } from "../../core/registration/race-links";

/** The place fields, read-only here: they are set together through `POST …/city`. */
function cityFields(table: typeof clubs): EntityField[] {
  return [
    field("city_name", table.cityName, "string", { writable: false }),
    field("timezone", table.timezone, "string", { writable: false }),
    field("geoname", table.geoname, "int", { writable: false }),
    field("latitude", table.latitude, "float", { writable: false }),
    field("longitude", table.longitude, "float", { writable: false }),
    field("province_iso", table.provinceIso, "string", { writable: false }),
    field("country_iso", table.countryIso, "string", { writable: false }),
  ];
}

const shortText = z.string().trim().max(200);
const shortId = z.string().trim().max(64);
/** Racer field → form field id ("" leaves it unfilled); the Registration rule checks the ids are the form's. */
const racerFieldMapSchema = z.record(z.string().max(80), z.string().max(64)).refine((map) => Object.keys(map).length <= 100, "At most 100 racer fields");

/** Registered redirect URIs: the same rule as the /manage/apps pages (core/access/app-registration.ts). */
const redirectUrisSchema = z
  .array(
    z.string().superRefine((uri, ctx) => {
      const problem = redirectUriProblem(uri);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  )
  .min(1)
  .max(APP_LIMITS.redirectUris)
  .refine((uris) => new Set(uris).size === uris.length, { error: "Each redirect URI may be listed only once" });

/** The areas an app may ask for, as scope text of area names (no item limits: those come with a user's grant). */
const appScopesSchema = z
  .string()
  .trim()
  .max(2000)
  .superRefine((text, ctx) => {
    const words = text.split(/\s+/).filter(Boolean);
    const unknown = words.filter((word) => !isScope(word));
    if (unknown.length > 0) ctx.addIssue({ code: "custom", message: `Unknown scope: ${unknown.join(", ")}` });
  });
const epochMs = z.number().int().min(0).max(8_640_000_000_000_000);

export const WhitelabelSite = entityClass({
  classname: "WhitelabelSite",
  description: "A club site served on its own hostname",
  area: "sites",
  table: sites,
  owners: { siteId: "uuid" },
  // Hostnames route every request of a tenant, so sites are created and their hostnames set by the super-admin
  // flow; the look (config) is the site's own, changed here and on /site/{site}/settings alike.
  changeOnly: true,
  fields: [
    uuidField(sites.id),
    createdField(sites.createdAt),
    field("hostname", sites.hostname, "string", { writable: false }),
    field("config", sites.config, "json", { schema: siteConfigSchema }),
  ],
});

export const Club = entityClass({
  classname: "Club",
  description: "An organisation (club or division) that runs registrations and races",
  area: "clubs",
  table: clubs,
  owners: { clubId: "uuid", siteId: "site" },
  hasCity: true,
  fields: [
    uuidField(clubs.id),
    createdField(clubs.createdAt),
    field("name", clubs.name, "string", { schema: shortText.min(1) }),
    field("sport", clubs.sport, "string", { schema: shortText }),
    field("country", clubs.country, "string", { schema: z.string().regex(/^[A-Z]{2}$/, "country is a two-letter code") }),
    field("email", clubs.email, "string", { schema: z.email().max(320) }),
    field("website", clubs.website, "string", { schema: z.url().max(2000) }),
    field("logo", clubs.logo, "string", { schema: z.url().max(2000) }),
    field("info", clubs.info, "string"),
    field("public_url", clubs.publicUrl, "string", { schema: z.url().max(2000) }),
    field("is_stripe", clubs.isStripe, "bool"),
    field("tax_number", clubs.taxNumber, "string", { schema: taxNumberSchema }),
    field("qst_number", clubs.qstNumber, "string", { schema: qstNumberSchema }),
    field("site", clubs.siteId, "string", { createOnly: true }),
    ...cityFields(clubs),
  ],
});

export const User = entityClass({
  classname: "User",
  description: "A person who signs in",
  area: "users",
  table: users,
  owners: {},
  // Accounts are created by sign-up and changed by their owner through the sign-in app.
  readOnly: true,
  fields: [
    uuidField(users.id),
    createdField(users.createdAt),
    field("name", users.name, "string"),
    field("email", users.email, "string"),
    field("password_age_ignore_days_num", users.passwordAgeIgnoreDaysNum, "int"),
  ],
});

export const Role = entityClass({
  classname: "Role",
  description: "A role held by a user",
  area: "users",
  table: roles,
  owners: { clubId: "club", siteId: "site" },
  // Roles grant power; granting them through a token would let a club admin's app make a super admin.
  readOnly: true,
  fields: [
    uuidField(roles.id),
    createdField(roles.createdAt),
    field("user", roles.userId, "string"),
    field("type", roles.type, "string"),
    field("club", roles.clubId, "string"),
    field("site", roles.siteId, "string"),
    field("scope", roles.scope, "string"),
    field("config", roles.config, "json"),
  ],
});

export const APIApplication = entityClass({
  classname: "APIApplication",
  description: "A third-party or system application that acts for users",
  area: "apps",
  table: apiApplications,
  owners: { clubId: "club", siteId: "site" },
  fields: [
    uuidField(apiApplications.id),
    createdField(apiApplications.createdAt),
    field("name", apiApplications.name, "string", { schema: z.string().trim().min(1).max(APP_LIMITS.name) }),
    field("description", apiApplications.description, "string", { schema: z.string().trim().max(APP_LIMITS.description) }),
    // A system app skips consent for every user, so only the platform sets it.
    field("is_system", apiApplications.isSystem, "bool", { writable: false }),
    // A confidential app's secret is shown once, on the /manage/apps page that makes it; the API makes public apps.
    field("is_public", apiApplications.isPublic, "bool", { writable: false }),
    field("scopes", apiApplications.scopes, "string", { schema: appScopesSchema }),
    field("redirect_uris", apiApplications.redirectUris, "json", { schema: redirectUrisSchema }),
    field("club", apiApplications.clubId, "string", { createOnly: true }),
    field("site", apiApplications.siteId, "string", { writable: false }),
  ],
  // An app belongs to the host it is created on (its tokens work only there), not to its club's site.
  references: [{ field: "club", classname: "Club", copy: {} }],
});

export const Registration = entityClass({
  classname: "Registration",
  description: "A registration form of a club",
  area: "registrations",
  table: registrations,
  owners: { registrationId: "uuid", clubId: "club", siteId: "site" },
  references: [{ field: "club", classname: "Club", copy: { site: "site" } }],
  fields: [
    uuidField(registrations.id),
    createdField(registrations.createdAt),
    field("club", registrations.clubId, "string", { createOnly: true }),
    field("site", registrations.siteId, "string", { writable: false }),
    field("name", registrations.name, "string", { schema: shortText.min(1) }),
    // Approval is a System Administrator's act on the review page, never a field the form's own club may set.
    field("is_approved", registrations.isApproved, "bool", { writable: false }),
    field("is_pending", registrations.isPending, "bool"),
    field("approval_status", registrations.approvalStatus, "string", { writable: false }),
    field("open_time", registrations.openTime, "time", { schema: epochMs }),
    field("close_time", registrations.closeTime, "time", { schema: epochMs }),
    field("is_all_events", registrations.isAllEvents, "bool"),
    field("tags", registrations.tags, "json", { schema: z.array(z.string().max(100)).max(50) }),
    field("first_name_field_id", registrations.firstNameFieldId, "string"),
    field("last_name_field_id", registrations.lastNameFieldId, "string"),
    field("people_labels", registrations.peopleLabels, "json", { schema: z.record(z.string(), z.string().max(200)) }),
    field("age_calc_date", registrations.ageCalcDate, "string", { schema: z.iso.date() }),
    field("raise_price_1_time", registrations.raisePrice1Time, "time", { schema: epochMs }),
    field("raise_price_2_time", registrations.raisePrice2Time, "time", { schema: epochMs }),
    field("raise_price_3_time", registrations.raisePrice3Time, "time", { schema: epochMs }),
    field("gst_rate", registrations.gstRate, "float", { schema: z.number().min(0).max(100) }),
    field("is_bilingual", registrations.isBilingual, "bool"),
    field("event", registrations.event, "string"),
    field("sport", registrations.sport, "string", { schema: shortText }),
    field("legacy_id", registrations.legacyId, "int"),
    field("pass_season", registrations.passSeason, "string", { schema: shortText.max(50) }),
    field("pass_valid_from", registrations.passValidFrom, "string", { schema: z.iso.date() }),
    field("pass_valid_until", registrations.passValidUntil, "string", { schema: z.iso.date() }),
    // Race links (decision 0058): checked against the club's races and their courses by the Registration rule.
    field("race", registrations.raceId, "string", { schema: shortId }),
    field("race_course", registrations.raceCourseId, "string", { schema: shortId }),
    field("race_start_group", registrations.raceStartGroupId, "string", { schema: shortId }),
    field("race_option_field", registrations.raceOptionField, "string", { schema: shortId }),
    field("race_option_links", registrations.raceOptionLinks, "json", { schema: raceOptionLinksSchema }),
    field("racer_field_map", registrations.racerFieldMap, "json", { schema: racerFieldMapSchema }),
  ],
});

export const FormElement = entityClass({
  classname: "FormElement",
  description: "One field of a registration form",
  area: "registrations",
  table: formElements,
  owners: { registrationId: "registration", clubId: "club", siteId: "site" },
  parent: { field: "registration", classname: "Registration", copy: { club: "club", site: "site" } },
  fields: [
    uuidField(formElements.id),
    createdField(formElements.createdAt),
    field("registration", formElements.registrationId, "string", { createOnly: true }),
    field("club", formElements.clubId, "string", { writable: false }),
    field("site", formElements.siteId, "string", { writable: false }),
    field("type", formElements.type, "string", { schema: z.enum(FIELD_TYPES) }),
    field("caption", formElements.caption, "string"),
    field("title", formElements.title, "string"),
    field("column_header", formElements.columnHeader, "string"),
    field("price_1", formElements.price1, "int"),
    field("price_2", formElements.price2, "int"),
    field("price_3", formElements.price3, "int"),
    field("is_taxable", formElements.isTaxable, "bool"),
    field("is_mandatory", formElements.isMandatory, "bool"),
    field("is_admin_only", formElements.isAdminOnly, "bool"),
    field("is_kiosk_mode", formElements.isKioskMode, "bool"),
    field("is_admin_mandatory", formElements.isAdminMandatory, "bool"),
    field("is_edit_forbidden", formElements.isEditForbidden, "bool"),
    field("condition_element", formElements.conditionElement, "string"),
    field("condition_operator", formElements.conditionOperator, "string"),
    field("condition_value", formElements.conditionValue, "string"),
    field("logic_key", formElements.logicKey, "string", { schema: logicKeySchema }),
    field("ordinal", formElements.ordinal, "int"),
    field("quantity_limit", formElements.quantityLimit, "int"),
    field("all_discount", formElements.allDiscount, "bool"),
    field("member_class", formElements.memberClass, "string", { schema: z.enum(MEMBER_CLASSES) }),
    field("is_fee", formElements.isFee, "bool"),
    // The same checks as the form builder (core/forms/element-schema.ts).
    field("options_list", formElements.optionsList, "json", { schema: z.array(formOptionSchema).max(FORM_LIMITS.options) }),
    field("display_type", formElements.displayType, "string"),
    field("config", formElements.config, "json", { schema: elementConfigSchema }),
  ],
});

export const Cart = entityClass({
  classname: "Cart",
  description: "A registrant's cart on a registration form: its people, values for cart-level fields and what it came to",
  area: "carts",
  table: carts,
  owners: { registrationId: "registration", clubId: "club", siteId: "site" },
  parent: { field: "registration", classname: "Registration", copy: { club: "club", site: "site" } },
  // Carts are made and priced by the registration flow and completed by payments; the API only reads them.
  readOnly: true,
  fields: [
    uuidField(carts.id),
    createdField(carts.createdAt),
    field("registration", carts.registrationId, "string"),
    field("club", carts.clubId, "string"),
    field("site", carts.siteId, "string"),
    field("email", carts.email, "string"),
    field("is_removed", carts.isRemoved, "bool"),
    field("is_complete", carts.isComplete, "bool"),
    field("cart_number", carts.cartNumber, "int"),
    field("legacy_id", carts.legacyId, "int"),
    field("origin", carts.origin, "string"),
    field("values", carts.values, "json"),
    field("discount_codes", carts.discountCodes, "string"),
    field("total", carts.total, "int"),
    field("completion_time", carts.completedAt, "time"),
  ],
});

export const Individual = entityClass({
  classname: "Individual",
  description: "One person in a cart, with their values per form field",
  area: "carts",
  table: individuals,
  owners: { registrationId: "registration", clubId: "club", siteId: "site" },
  parent: { field: "cart", classname: "Cart", copy: { registration: "registration", club: "club", site: "site" } },
  readOnly: true,
  fields: [
    uuidField(individuals.id),
    createdField(individuals.createdAt),
    field("cart", individuals.cartId, "string"),
    field("registration", individuals.registrationId, "string"),
    field("club", individuals.clubId, "string"),
    field("site", individuals.siteId, "string"),
    field("is_removed", individuals.isRemoved, "bool"),
    field("is_complete", individuals.isComplete, "bool"),
    field("person", individuals.person, "string"),
    field("ordinal", individuals.ordinal, "int"),
    field("values", individuals.values, "json"),
    field("paid_time", individuals.paidAt, "time"),
    field("price_total", individuals.priceTotal, "int"),
  ],
});

export const Race = entityClass({
  classname: "Race",
  description: "A race; its RaceRoom holds it, and D1 keeps the catalogue copy that lists read",
  area: "races",
  store: "race",
  table: races,
  owners: { raceId: "uuid", clubId: "club", siteId: "site" },
  references: [{ field: "club", classname: "Club", copy: { site: "site" } }],
  fields: [
    uuidField(races.id),
    createdField(races.createdAt),
    field("club", races.clubId, "string", { createOnly: true }),
    field("site", races.siteId, "string", { writable: false }),
    field("name", races.name, "string", { schema: shortText.min(1) }),
    field("sport", races.sport, "string", { schema: shortText }),
    field("start_time", races.startTime, "time", { schema: epochMs }),
    field("end_time", races.endTime, "time", { schema: epochMs }),
    field("timezone", races.timezone, "string", { schema: z.string().min(1).max(64) }),
    field("location", races.location, "string", { schema: shortText }),
    field("visibility", races.visibility, "string", { schema: z.enum(["public", "unlisted", "private"]) }),
  ],
});

export const entityClasses: readonly EntityClass[] = [
  WhitelabelSite,
  Club,
  User,
  Role,
  APIApplication,
  Registration,
  FormElement,
  Cart,
  Individual,
  Race,
  ...adminEntityClasses,
  ...gochipEntityClasses,
];

const byName = new Map(entityClasses.map((entity) => [entity.classname, entity]));

/** Classes are matched exactly (case-sensitive), as the spec writes them. */
export function findEntityClass(classname: string): EntityClass | undefined {
  return byName.get(classname);
}

/** The classes whose parent is `classname`, keyed by their collection name. */
export function childClassesOf(classname: string): { collection: string; entity: EntityClass }[] {
  return entityClasses.filter((entity) => entity.parent?.classname === classname).map((entity) => ({ collection: collectionName(entity.classname), entity }));
}
