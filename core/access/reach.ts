/**
 * What a principal may list: the union of its roles' reaches, narrowed by a token's item grants. The data
 * service turns this into a SQL condition, so a page of results holds only rows `can` would allow.
 */
import { effectiveRoles, roleReach, type Action, type Principal, type ReachKind } from "./policy";
import { scopeForArea, type ProtectedArea } from "./scopes";

export interface ListReach {
  /** The action the reach is for: a "view" reach with any owner also reaches platform-wide objects. */
  readonly action: Action;
  /** Some role reaches every object of the area. */
  readonly all: boolean;
  /** Otherwise the owners whose objects are reached, by owner kind. */
  readonly owners: ReadonlyMap<ReachKind, readonly string[]>;
  /** A token limited to items: only these (owner kind `tokenKind`); null when not limited. */
  readonly tokenItems: readonly string[] | null;
  readonly tokenKind: ReachKind;
}

/** The owner kind whose id a token's item grant names for an area (as `can` checks it). */
export function tokenItemKind(area: ProtectedArea): ReachKind {
  switch (area) {
    case "registrations":
    case "races":
    case "depots":
    case "clubs":
    case "sites":
      return area;
    default:
      return "item";
  }
}

export function listReach(principal: Principal, action: Action, area: ProtectedArea): ListReach {
  let all = false;
  const owners = new Map<ReachKind, string[]>();
  for (const role of effectiveRoles(principal)) {
    const reach = roleReach(role, action, area);
    if (reach.kind === "all") all = true;
    else if (reach.kind !== "none") {
      const ids = owners.get(reach.kind) ?? [];
      if (!ids.includes(reach.id)) ids.push(reach.id);
      owners.set(reach.kind, ids);
    }
  }
  let tokenItems: string[] | null = null;
  if (principal.tokenScopes !== undefined) {
    const scope = scopeForArea(area);
    const grants = principal.tokenScopes.filter((grant) => grant.scope === scope);
    if (!grants.some((grant) => grant.anyItem)) tokenItems = [...new Set(grants.flatMap((grant) => grant.items))];
  }
  return { action, all, owners, tokenItems, tokenKind: tokenItemKind(area) };
}

/** True when the reach can match nothing, so a store need not ask. */
export function reachesNothing(reach: ListReach): boolean {
  if (reach.tokenItems !== null && reach.tokenItems.length === 0) return true;
  return !reach.all && reach.owners.size === 0;
}
