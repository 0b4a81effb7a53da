import { inArray } from "drizzle-orm";
import type { ScopeGrant } from "../../core/access/scopes";
import { races, type Db } from "../../schema/d1";
import { grantedScopes, type AuthorizeCheck } from "./oauth";

export interface ScopeView {
  type: string;
  any_item: boolean;
  items: { item_id: string; item_name: string }[];
}

/** Item names a person recognises; ids stand in for kinds whose tables arrive later. */
async function itemNames(db: Db, grants: readonly ScopeGrant[]): Promise<Map<string, string>> {
  const raceIds = grants.filter((g) => g.scope === "races").flatMap((g) => g.items);
  const names = new Map<string, string>();
  if (raceIds.length > 0) {
    for (const race of await db.select({ id: races.id, name: races.name }).from(races).where(inArray(races.id, raceIds))) names.set(race.id, race.name);
  }
  return names;
}

async function view(db: Db, grants: readonly ScopeGrant[]): Promise<ScopeView[]> {
  const names = await itemNames(db, grants);
  return grants.map((g) => ({ type: g.scope, any_item: g.anyItem, items: g.items.map((id) => ({ item_id: id, item_name: names.get(id) ?? id })) }));
}

/** What the consent screen shows (spec: GET /_auth/app reply). */
export async function consentInfo(db: Db, userId: string, check: Extract<AuthorizeCheck, { ok: true }>) {
  const granted = await grantedScopes(db, userId, check.app.id);
  const isNew = (r: ScopeGrant) => !granted.some((g) => g.scope === r.scope && (g.anyItem || r.items.every((i) => g.items.includes(i))));
  return {
    app_name: check.app.name,
    app_description: check.app.description,
    system_app: check.app.isSystem,
    illegal_requests: check.illegal,
    new_scopes: await view(db, check.requested.filter(isNew)),
    granted_scopes: await view(db, granted),
  };
}
