/**
 * What the Organization Admin's page (/club/{club}/admin) shows besides the club's own form: who holds which
 * role in the club, its bank accounts and their requests, and how many forms and races it runs.
 */
import { count, desc, eq } from "drizzle-orm";
import { roleDefinition, type RoleType } from "../../core/access/roles";
import { bankAccounts, pendingBankAccounts, races, registrations, roles, users, type Db } from "../../schema/d1";

export interface ClubOverview {
  people: { roleId: string; name: string; email: string; role: string; scope: string | null }[];
  bankAccounts: { id: string; name: string; kind: string; last4: string }[];
  requests: { id: string; name: string; kind: string; last4: string; state: "waiting" | "approved" | "denied"; at: number }[];
  forms: number;
  races: number;
}

export async function clubOverview(db: Db, clubId: string): Promise<ClubOverview> {
  const [people, accounts, requests, forms, raceCount] = await db.batch([
    db
      .select({ roleId: roles.id, type: roles.type, scope: roles.scope, name: users.name, email: users.email })
      .from(roles)
      .innerJoin(users, eq(users.id, roles.userId))
      .where(eq(roles.clubId, clubId))
      .orderBy(users.email),
    db.select().from(bankAccounts).where(eq(bankAccounts.clubId, clubId)).orderBy(bankAccounts.name),
    db.select().from(pendingBankAccounts).where(eq(pendingBankAccounts.clubId, clubId)).orderBy(desc(pendingBankAccounts.createdAt)).limit(20),
    db.select({ n: count() }).from(registrations).where(eq(registrations.clubId, clubId)),
    db.select({ n: count() }).from(races).where(eq(races.clubId, clubId)),
  ]);
  return {
    people: people.map((p) => ({ roleId: p.roleId, name: p.name, email: p.email, role: roleDefinition(p.type as RoleType).label, scope: p.scope })),
    bankAccounts: accounts.map((a) => ({ id: a.id, name: a.displayName || a.name, kind: a.kind, last4: a.accountLast4 })),
    requests: requests.map((r) => ({
      id: r.id,
      name: r.name,
      kind: r.kind,
      last4: r.accountLast4,
      state: r.approvedTime ? "approved" : r.deniedTime ? "denied" : "waiting",
      at: r.createdAt,
    })),
    forms: forms[0]?.n ?? 0,
    races: raceCount[0]?.n ?? 0,
  };
}
