/**
 * A division person's key (how a paid registration finds them again, decision 0036) follows a correction of
 * their names, birth date or e-mail, in the correction's own batch and only if that correction wins its race.
 */
import { and, eq, sql } from "drizzle-orm";
import { personKey } from "../../core/memberships/membership";
import { divisionPeople } from "../../schema/d1";
import type { FieldChange } from "./field-change";

const KEY_FIELDS = ["first_name", "last_name", "birth_date", "email"];

export function personKeyFollows({ db, classname, id, changed, merged, version }: FieldChange) {
  if (classname !== "DivisionPerson" || !KEY_FIELDS.some((f) => f in changed)) return [];
  const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);
  const key = personKey({
    firstName: String(merged.first_name ?? ""),
    lastName: String(merged.last_name ?? ""),
    birthDate: text(merged.birth_date),
    email: text(merged.email),
  });
  // Guarded by the version the change read, like its history: a correction that lost its race moves no key.
  return [
    db
      .update(divisionPeople)
      .set({ personKey: key })
      .where(and(eq(divisionPeople.id, id), sql`CAST(${divisionPeople.fieldMtimes} AS TEXT) = ${version}`)),
  ];
}
