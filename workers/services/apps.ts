/**
 * The API Client Admin's applications (platform.md sections 3 and 6): list, create, edit, rotate the secret
 * and delete, each checked with `can()` on area "apps" and kept to the request's tenant. Lists reuse the data
 * service's reach-to-SQL scoping, so a page shows exactly the rows `can` would allow.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import * as z from "zod";
import { can, type Action, type Principal, type ProtectedObject } from "../../core/access/policy";
import { listReach, reachesNothing } from "../../core/access/reach";
import { formatScopeText, parseScopeText, scopeNames } from "../../core/access/scope-text";
import { APP_LIMITS, redirectUriProblem } from "../../core/access/app-registration";
import { allScopes, isScope, type Scope } from "../../core/access/scopes";
import { initialMtimes, type FieldMtimes } from "../../core/entity/field-mtimes";
import { apiApplications, clubs, type Db } from "../../schema/d1";
import { APIApplication } from "../../schema/entities/classes";
import { protectedObjectOf } from "../../schema/entities/registry";
import type { Tenant } from "../../tenants/resolve";
import { hashToken, randomToken } from "../auth/crypto";
import { changeFields, getEntity, listEntities, type EntityRow } from "../data-api/entity-store";
import { changedHistory, createdHistory, deletedHistory } from "./entity-history";

/** A list page shows at most this many apps; a club has a handful. */
export const APP_LIST_LIMIT = 200;
/** 32 random bytes, base64url: 256 bits, far beyond guessing. */
const CLIENT_SECRET_BYTES = 32;
const CLUB_CHOICES_LIMIT = 500;

// ---------------------------------------------------------------------------------------------------------
// Forms

/** Form values as zod reads them; `scopes` comes from several checkboxes of one name. */
export function appFormValues(form: FormData): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, value] of form) if (typeof value === "string" && key !== "scopes") values[key] = value;
  values.scopes = form.getAll("scopes").filter((v): v is string => typeof v === "string");
  return values;
}

/** Why a redirect URI is refused, or null. They are matched as exact strings, so they are stored as typed. */

const nameSchema = z
  .string({ error: "Enter a name" })
  .trim()
  .min(1, { error: "Enter a name" })
  .max(APP_LIMITS.name, { error: `The name may be at most ${APP_LIMITS.name} characters` });

const descriptionSchema = z
  .string()
  .trim()
  .max(APP_LIMITS.description, { error: `The description may be at most ${APP_LIMITS.description} characters` })
  .optional()
  .transform((v) => v ?? "");

const redirectUrisSchema = z
  .string({ error: "Enter at least one redirect URI" })
  .max(APP_LIMITS.redirectUris * (APP_LIMITS.redirectUri + 2), { error: "Too many redirect URIs" })
  .transform((text) =>
    text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean),
  )
  .pipe(
    z
      .array(
        z.string().superRefine((uri, ctx) => {
          const problem = redirectUriProblem(uri);
          if (problem) ctx.addIssue({ code: "custom", message: problem });
        }),
      )
      .min(1, { error: "Enter at least one redirect URI" })
      .max(APP_LIMITS.redirectUris, { error: `Enter at most ${APP_LIMITS.redirectUris} redirect URIs` })
      .refine((uris) => new Set(uris).size === uris.length, { error: "Each redirect URI may be listed only once" }),
  );

const scopesSchema = z
  .array(z.string())
  .max(allScopes.length * 2, { error: "Too many scopes" })
  .superRefine((names, ctx) => {
    const unknown = names.filter((name) => !isScope(name));
    if (unknown.length > 0) ctx.addIssue({ code: "custom", message: `Unknown scope: ${unknown.join(", ")}` });
  })
  .transform((names) => allScopes.filter((scope) => names.includes(scope)));

const mtimesSchema = z
  .string()
  .max(5000)
  .optional()
  .transform((text, ctx): FieldMtimes | undefined => {
    if (!text) return undefined;
    try {
      const parsed = z.record(z.string(), z.number().int().nonnegative()).safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
    } catch {
      // Falls through to the issue below.
    }
    ctx.addIssue({ code: "custom", message: "The form is out of date; reload the page" });
    return z.NEVER;
  });

/** The create form. `is_system` is not in it: a system app skips consent for every user, so only the platform sets it. */
export const createAppSchema = z.object({
  name: nameSchema,
  description: descriptionSchema,
  redirect_uris: redirectUrisSchema,
  scopes: scopesSchema,
  client_type: z.enum(["public", "confidential"], { error: "Choose whether the app is public or confidential" }),
  club: z
    .string()
    .max(64)
    .optional()
    .transform((v) => (v ? v : null)),
});

/** The edit form; the client type and club are fixed once created. `field_mtimes` is what the page was loaded with. */
export const updateAppSchema = z.object({
  name: nameSchema,
  description: descriptionSchema,
  redirect_uris: redirectUrisSchema,
  scopes: scopesSchema,
  field_mtimes: mtimesSchema,
});

export type CreateAppInput = z.output<typeof createAppSchema>;
export type UpdateAppInput = z.output<typeof updateAppSchema>;
export type FieldErrors = Partial<Record<string, string>>;

// ---------------------------------------------------------------------------------------------------------
// Reads

export interface AppView {
  id: string;
  name: string;
  description: string;
  isPublic: boolean;
  isSystem: boolean;
  scopes: Scope[];
  redirectUris: string[];
  clubId: string | null;
  clubName: string | null;
  siteId: string | null;
  createdAt: number;
  /** The per-field times the page was read at; sent back on save to catch a concurrent edit. */
  fieldMtimes: FieldMtimes;
}

function tenantSite(tenant: Tenant): string | null {
  return tenant.kind === "site" ? tenant.siteId : null;
}

/** The same rule the data service applies to one row: on a site host only that site's apps, then `can`. */
function permitted(principal: Principal, tenant: Tenant, row: EntityRow, action: Action): boolean {
  const object = protectedObjectOf(APIApplication, row);
  const site = tenantSite(tenant);
  if (site !== null && object.siteId !== site) return false;
  return can(principal, action, object);
}

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

function toView(row: EntityRow, mtimes: FieldMtimes, clubNames: ReadonlyMap<string, string>): AppView {
  const clubId = text(row.club);
  return {
    id: row.uuid,
    name: String(row.name ?? ""),
    description: String(row.description ?? ""),
    isPublic: row.is_public === true,
    isSystem: row.is_system === true,
    scopes: scopeNames(parseScopeText(text(row.scopes)).grants),
    redirectUris: Array.isArray(row.redirect_uris) ? row.redirect_uris.filter((u): u is string => typeof u === "string") : [],
    clubId,
    clubName: clubId ? (clubNames.get(clubId) ?? null) : null,
    siteId: text(row.site),
    createdAt: Number(row.created_time ?? 0),
    fieldMtimes: mtimes,
  };
}

async function clubNamesOf(db: Db, ids: readonly (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.select({ id: clubs.id, name: clubs.name }).from(clubs).where(inArray(clubs.id, wanted));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Whether any of the principal's roles reaches apps at all; without one the pages answer 403. */
export function mayManageApps(principal: Principal): boolean {
  return !reachesNothing(listReach(principal, "view", "apps"));
}

/** The apps the principal may view on this tenant, newest first. */
export async function listManageableApps(db: Db, principal: Principal, tenant: Tenant): Promise<{ apps: AppView[]; total: number }> {
  const reach = listReach(principal, "view", "apps");
  if (reachesNothing(reach)) return { apps: [], total: 0 };
  const page = await listEntities(db, APIApplication, reach, {
    conditions: [],
    limit: APP_LIST_LIMIT,
    offset: 0,
    sort: { field: "created_time", descending: true },
    siteId: tenantSite(tenant),
  });
  // The SQL scope and the policy are one rule; this check keeps a future mismatch from leaking a row.
  const items = page.items.filter((item) => permitted(principal, tenant, item.row, "view"));
  const names = await clubNamesOf(
    db,
    items.map((item) => text(item.row.club)),
  );
  return { apps: items.map((item) => toView(item.row, item.mtimes, names)), total: page.total };
}

export interface ManageableApp {
  app: AppView;
  mayEdit: boolean;
  mayDelete: boolean;
}

/** One app the principal may view on this tenant, with what else it may do; null reads as not found. */
export async function getManageableApp(db: Db, principal: Principal, tenant: Tenant, id: string): Promise<ManageableApp | null> {
  if (!/^[0-9A-Za-z-]{1,64}$/.test(id)) return null;
  const stored = await getEntity(db, APIApplication, id);
  if (!stored || !permitted(principal, tenant, stored.row, "view")) return null;
  const app = toView(stored.row, stored.mtimes, await clubNamesOf(db, [text(stored.row.club)]));
  // System apps belong to the platform: they are shown here but changed only by the platform itself.
  return {
    app,
    mayEdit: !app.isSystem && permitted(principal, tenant, stored.row, "edit"),
    mayDelete: !app.isSystem && permitted(principal, tenant, stored.row, "delete"),
  };
}

export interface ClubChoice {
  id: string;
  name: string;
}

/**
 * The clubs a new app may belong to: those where the principal may create apps (on a site host, only that
 * site's clubs). `clubOptional` is true when it may also create an app without a club (an API Client Admin
 * bound to no club).
 */
export async function creatableClubs(db: Db, principal: Principal, tenant: Tenant): Promise<{ clubs: ClubChoice[]; clubOptional: boolean }> {
  const site = tenantSite(tenant);
  const reach = listReach(principal, "create", "apps");
  const clubOptional = can(principal, "create", { area: "apps", clubId: null, siteId: site });
  if (reachesNothing(reach)) return { clubs: [], clubOptional };
  const ids = reach.owners.get("clubs") ?? [];
  if (!reach.all && ids.length === 0) return { clubs: [], clubOptional };
  const rows = await db
    .select({ id: clubs.id, name: clubs.name })
    .from(clubs)
    .where(and(reach.all ? undefined : inArray(clubs.id, [...ids]), site === null ? undefined : eq(clubs.siteId, site)))
    .orderBy(asc(clubs.name))
    .limit(CLUB_CHOICES_LIMIT);
  return { clubs: rows.filter((club) => can(principal, "create", { area: "apps", clubId: club.id, siteId: site })), clubOptional };
}

/** Whether the principal may create any app on this tenant. */
export function mayCreateApps(choices: { clubs: readonly ClubChoice[]; clubOptional: boolean }): boolean {
  return choices.clubOptional || choices.clubs.length > 0;
}

// ---------------------------------------------------------------------------------------------------------
// Writes

export type Refusal = "not_found" | "forbidden" | "system_app" | "public_app";

export type CreateResult = { ok: true; app: { id: string; name: string; isPublic: boolean }; clientSecret: string | null } | { ok: false; errors: FieldErrors };

/**
 * Creates an app for the tenant (its site, or none on the main host) and the chosen club. A confidential app
 * gets a client secret; only its SHA-256 is stored and the secret is returned this once.
 */
export async function createApp(db: Db, principal: Principal, tenant: Tenant, input: CreateAppInput, now: number): Promise<CreateResult> {
  const site = tenantSite(tenant);
  if (input.club !== null) {
    const club = await db.query.clubs.findFirst({ where: eq(clubs.id, input.club), columns: { id: true, siteId: true } });
    if (!club || (site !== null && club.siteId !== site)) return { ok: false, errors: { club: "Choose one of the listed clubs" } };
  }
  const id = crypto.randomUUID();
  if (!can(principal, "create", { area: "apps", id, clubId: input.club, siteId: site })) {
    return { ok: false, errors: { club: input.club ? "You may not create applications for this club" : "Choose the club the application belongs to" } };
  }
  const clientSecret = input.client_type === "confidential" ? randomToken(CLIENT_SECRET_BYTES) : null;
  const fields = {
    name: input.name,
    description: input.description,
    is_public: clientSecret === null,
    scopes: formatScopeText(input.scopes.map((scope) => ({ scope, anyItem: true, items: [] }))),
    redirect_uris: input.redirect_uris,
    club: input.club,
    site,
  };
  const author = { userId: principal.userId, appId: null, at: now };
  const { site: _site, ...recorded } = fields;
  await db.batch([
    db.insert(apiApplications).values({
      id,
      createdAt: now,
      fieldMtimes: initialMtimes(fields, now),
      name: fields.name,
      description: fields.description,
      isSystem: false,
      isPublic: fields.is_public,
      scopes: fields.scopes,
      redirectUris: fields.redirect_uris,
      clientSecretHash: clientSecret ? hashToken(clientSecret) : null,
      siteId: site,
      clubId: input.club,
      ownerUserId: principal.userId,
    }),
    ...createdHistory(db, APIApplication, id, recorded, author),
  ]);
  return { ok: true, app: { id, name: input.name, isPublic: clientSecret === null }, clientSecret };
}

export type UpdateResult =
  | { ok: true; changed: Record<string, unknown>; mtimes: FieldMtimes; object: ProtectedObject }
  | { ok: false; refusal: Refusal }
  | { ok: false; stale: string[] };

/**
 * Saves the edit form field by field: only fields whose value differs are written and stamped. A field
 * someone else changed after `field_mtimes` was read is not overwritten; the caller reports it as stale.
 */
export async function updateApp(db: Db, principal: Principal, tenant: Tenant, id: string, input: UpdateAppInput, now: number): Promise<UpdateResult> {
  const changes = {
    name: input.name,
    description: input.description,
    redirect_uris: input.redirect_uris,
    scopes: formatScopeText(input.scopes.map((scope) => ({ scope, anyItem: true, items: [] }))),
  };
  const stored = await getEntity(db, APIApplication, id);
  const refusal = refusalFor(principal, tenant, stored?.row ?? null, "edit");
  if (refusal || !stored) return { ok: false, refusal: refusal ?? "not_found" };
  const author = { userId: principal.userId, appId: null, at: now };
  const result = await changeFields(db, APIApplication, id, changes, input.field_mtimes, now, (before, changed, version) =>
    changedHistory(db, APIApplication, id, before, changed, version, author),
  );
  if (!result) return { ok: false, refusal: "not_found" };
  if (!result.ok) return { ok: false, stale: result.stale };
  return { ok: true, changed: result.changed, mtimes: result.mtimes, object: protectedObjectOf(APIApplication, stored.row) };
}

function refusalFor(principal: Principal, tenant: Tenant, row: EntityRow | null, action: "edit" | "delete"): Refusal | null {
  if (!row || !permitted(principal, tenant, row, "view")) return "not_found";
  if (!permitted(principal, tenant, row, action)) return "forbidden";
  if (row.is_system === true) return "system_app";
  return null;
}

/** Replaces a confidential app's secret; the old one stops working at once. Tokens already issued stay valid. */
export async function rotateSecret(
  db: Db,
  principal: Principal,
  tenant: Tenant,
  id: string,
): Promise<{ ok: true; clientSecret: string } | { ok: false; refusal: Refusal }> {
  const stored = await getEntity(db, APIApplication, id);
  const refusal = refusalFor(principal, tenant, stored?.row ?? null, "edit");
  if (refusal) return { ok: false, refusal };
  if (stored?.row.is_public === true) return { ok: false, refusal: "public_app" };
  const clientSecret = randomToken(CLIENT_SECRET_BYTES);
  // The history says the secret was replaced and by whom; neither secret is ever written to it.
  const author = { userId: principal.userId, appId: null, at: Date.now() };
  await db.batch([
    db
      .update(apiApplications)
      .set({ clientSecretHash: hashToken(clientSecret) })
      .where(eq(apiApplications.id, id)),
    ...changedHistory(db, APIApplication, id, { client_secret: "(earlier secret)" }, { client_secret: "(new secret)" }, null, author),
  ]);
  return { ok: true, clientSecret };
}

/** Deletes an app and with it every grant, code and token it holds. */
export async function deleteApp(
  db: Db,
  principal: Principal,
  tenant: Tenant,
  id: string,
): Promise<{ ok: true; name: string; object: ProtectedObject } | { ok: false; refusal: Refusal }> {
  const stored = await getEntity(db, APIApplication, id);
  const refusal = refusalFor(principal, tenant, stored?.row ?? null, "delete");
  if (refusal || !stored) return { ok: false, refusal: refusal ?? "not_found" };
  // oauth_grants, oauth_codes and oauth_tokens reference the app ON DELETE CASCADE, which D1 enforces.
  const author = { userId: principal.userId, appId: null, at: Date.now() };
  await db.batch([db.delete(apiApplications).where(eq(apiApplications.id, id)), ...deletedHistory(db, APIApplication, id, stored.row, author)]);
  return { ok: true, name: String(stored.row.name ?? ""), object: protectedObjectOf(APIApplication, stored.row) };
}
