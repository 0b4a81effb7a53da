import { eq } from "drizzle-orm";
import { isRoleType, type RoleGrant } from "../../core/access/roles";
import { roles, type Db } from "../../schema/d1";

/** A user's stored roles as the policy reads them; rows of a type this build does not know are skipped. */
export async function loadRoles(db: Db, userId: string): Promise<RoleGrant[]> {
  const rows = await db.select().from(roles).where(eq(roles.userId, userId));
  return rows.flatMap((r) => (isRoleType(r.type) ? [{ id: r.id, type: r.type, clubId: r.clubId, siteId: r.siteId, scope: r.scope, config: r.config }] : []));
}
