/**
 * Which division a membership panel sells for (decision 0036, 0057): one of its form's club's divisions, chosen
 * in the builder or set through the data API; another club's is refused by both in the same words.
 */
import { and, asc, eq } from "drizzle-orm";
import type { FormElement } from "../../core/forms/model";
import { divisions, type Db } from "../../schema/d1";

export const DIVISION_CHOICE_MESSAGE = "Choose a division of this club";

/** The club's divisions, oldest first (a panel naming none sells for the first). */
export async function divisionsOfClub(db: Db, clubId: string): Promise<{ id: string; name: string }[]> {
  return db.select({ id: divisions.id, name: divisions.name }).from(divisions).where(eq(divisions.clubId, clubId)).orderBy(asc(divisions.createdAt));
}

export async function divisionReferenceProblem(db: Db, clubId: string, element: FormElement): Promise<Record<string, string> | null> {
  const id = element.config.division_id;
  if (!id) return null;
  const [found] = await db
    .select({ id: divisions.id })
    .from(divisions)
    .where(and(eq(divisions.id, id), eq(divisions.clubId, clubId)))
    .limit(1);
  return found ? null : { "config.division_id": DIVISION_CHOICE_MESSAGE };
}
