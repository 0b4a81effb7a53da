/**
 * Token scopes (platform.md section 6 and 7): a bearer token carries scope grants, each an area
 * optionally limited to item ids, and an insufficient_scope error lists the missing scopes.
 */
import { type AdminAreaKey } from "./admin-areas";

/** Every scope area a token may carry; mirrors the data-service areas so one vocabulary serves tokens and roles. */
export const allScopes = [
  "registrations",
  "races",
  "timingdevices",
  "pointsseries",
  "users",
  "carts",
  "clubs",
  "bankaccounts",
  "divisions",
  "servers",
  "emails",
  "depots",
  "eventpages",
  "sites",
  "validation",
  "activities",
  "rankingschemes",
  "pages",
  "cities",
  "points",
  "passes",
  "reports",
  "transactions",
  "communications",
  "apps",
] as const;

export type Scope = (typeof allScopes)[number];

/** A scope, either for any item or limited to the listed item ids (the granted_scopes shape of /_auth/app). */
export interface ScopeGrant {
  readonly scope: Scope;
  readonly anyItem: boolean;
  readonly items: readonly string[];
}

/** Areas an access check can be about: the super-admin areas plus the three that have no super-admin flag. */
export type ProtectedArea = AdminAreaKey | "reports" | "transactions" | "apps";

const scopeSet: ReadonlySet<string> = new Set(allScopes);

export function isScope(value: string): value is Scope {
  return scopeSet.has(value);
}

/** The token scope that guards an area; only "devices" differs because tokens call it "timingdevices". */
export function scopeForArea(area: ProtectedArea): Scope {
  return area === "devices" ? "timingdevices" : area;
}

interface MergedGrant {
  anyItem: boolean;
  items: string[];
}

// Several grants for one scope add up, so merge them before comparing lists.
function mergeGrants(grants: readonly ScopeGrant[]): Map<Scope, MergedGrant> {
  const merged = new Map<Scope, MergedGrant>();
  for (const grant of grants) {
    const entry = merged.get(grant.scope) ?? { anyItem: false, items: [] };
    entry.anyItem = entry.anyItem || grant.anyItem;
    for (const item of grant.items) if (!entry.items.includes(item)) entry.items.push(item);
    merged.set(grant.scope, entry);
  }
  return merged;
}

/**
 * What both lists allow: any∩any = any, any∩items = items, items∩items = the common items; empty results
 * are dropped. Order follows `a` so the result is deterministic.
 */
export function intersectScopes(a: readonly ScopeGrant[], b: readonly ScopeGrant[]): ScopeGrant[] {
  const left = mergeGrants(a);
  const right = mergeGrants(b);
  const result: ScopeGrant[] = [];
  for (const [scope, l] of left) {
    const r = right.get(scope);
    if (!r) continue;
    if (l.anyItem && r.anyItem) {
      result.push({ scope, anyItem: true, items: [] });
      continue;
    }
    const items = l.anyItem ? r.items : r.anyItem ? l.items : l.items.filter((item) => r.items.includes(item));
    if (items.length > 0) result.push({ scope, anyItem: false, items: [...items] });
  }
  return result;
}

/**
 * The required scopes the grants do not cover, in the order required (duplicates once). A grant limited to
 * items covers only a request about one of those items; without an itemId only an any-item grant covers it.
 */
export function missingScopes(required: readonly Scope[], granted: readonly ScopeGrant[], itemId?: string): Scope[] {
  const merged = mergeGrants(granted);
  const missing: Scope[] = [];
  for (const scope of required) {
    if (missing.includes(scope)) continue;
    const grant = merged.get(scope);
    const covered = grant !== undefined && (grant.anyItem || (itemId !== undefined && grant.items.includes(itemId)));
    if (!covered) missing.push(scope);
  }
  return missing;
}
