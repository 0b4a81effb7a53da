import { roleDefinition, type RoleGrant } from "./roles";
import { allScopes, isScope, type Scope, type ScopeGrant } from "./scopes";

/**
 * The text form of scopes in OAuth requests and token replies: space-separated areas, each optionally
 * limited to items with a colon and commas, e.g. `registrations races:3f2a…,9b1c…`.
 */
export function parseScopeText(text: string | null | undefined): { grants: ScopeGrant[]; unknown: string[] } {
  const grants: ScopeGrant[] = [];
  const unknown: string[] = [];
  for (const word of (text ?? "").split(/\s+/).filter(Boolean)) {
    const [name = "", itemText] = word.split(":", 2);
    if (!isScope(name)) {
      unknown.push(word);
      continue;
    }
    const items = itemText ? itemText.split(",").filter(Boolean) : [];
    grants.push({ scope: name, anyItem: items.length === 0, items });
  }
  return { grants, unknown };
}

export function formatScopeText(grants: readonly ScopeGrant[]): string {
  return grants.map((g) => (g.anyItem ? g.scope : `${g.scope}:${g.items.join(",")}`)).join(" ");
}

/** Scopes as a list of area names, each area once. */
export function scopeNames(grants: readonly ScopeGrant[]): Scope[] {
  return allScopes.filter((scope) => grants.some((g) => g.scope === scope));
}

/**
 * What a user's roles allow a token to carry: a role's scopes, limited to its one registration, race or
 * depot when the role is scoped to one. The data API still checks each object with `can()`.
 */
export function scopesOfRoles(roles: readonly RoleGrant[]): ScopeGrant[] {
  const grants: ScopeGrant[] = [];
  for (const role of roles) {
    const definition = roleDefinition(role.type);
    const scoped = definition.level === "registration" || definition.level === "race" || definition.level === "depot";
    for (const scope of definition.scopes) {
      grants.push(scoped ? { scope, anyItem: false, items: role.scope ? [role.scope] : [] } : { scope, anyItem: true, items: [] });
    }
  }
  return grants.filter((g) => g.anyItem || g.items.length > 0);
}
