import type { Principal } from "../../core/access/policy";
import type { ScopeGrant } from "../../core/access/scopes";
import type { Db } from "../../schema/d1";
import type { Tenant } from "../../tenants/resolve";
import { getRaceCatalogues, maySeeRace } from "../services/race-access";
import { grantedScopes, type AuthorizeCheck } from "./oauth";

export interface ScopeView {
  type: string;
  any_item: boolean;
  items: { item_id: string; item_name: string }[];
}

/**
 * Item names a person recognises; ids stand in for kinds whose tables arrive later. The app chose the ids, so
 * a name is shown only for a race of this tenant that the user may know of: a private race's name never leaks.
 */
async function itemNames(db: Db, tenant: Tenant, principal: Principal, grants: readonly ScopeGrant[]): Promise<Map<string, string>> {
  const raceIds = grants.filter((g) => g.scope === "races").flatMap((g) => g.items);
  const names = new Map<string, string>();
  for (const race of await getRaceCatalogues(db, tenant, raceIds)) if (maySeeRace(principal, race)) names.set(race.id, race.name);
  return names;
}

async function view(db: Db, tenant: Tenant, principal: Principal, grants: readonly ScopeGrant[]): Promise<ScopeView[]> {
  const names = await itemNames(db, tenant, principal, grants);
  return grants.map((g) => ({ type: g.scope, any_item: g.anyItem, items: g.items.map((id) => ({ item_id: id, item_name: names.get(id) ?? id })) }));
}

/** What the consent screen shows (spec: GET /_auth/app reply), named only as far as the signed-in user may see. */
export async function consentInfo(db: Db, tenant: Tenant, principal: Principal, check: Extract<AuthorizeCheck, { ok: true }>) {
  const granted = await grantedScopes(db, principal.userId, check.app.id);
  const isNew = (r: ScopeGrant) => !granted.some((g) => g.scope === r.scope && (g.anyItem || r.items.every((i) => g.items.includes(i))));
  return {
    app_name: check.app.name,
    app_description: check.app.description,
    system_app: check.app.isSystem,
    illegal_requests: check.illegal,
    new_scopes: await view(db, tenant, principal, check.requested.filter(isNew)),
    granted_scopes: await view(db, tenant, principal, granted),
  };
}
