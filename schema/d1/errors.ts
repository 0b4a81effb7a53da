/**
 * D1's words for a broken unique index, wherever they sit: drizzle wraps a single statement's error in a
 * DrizzleQueryError whose own message is the query ("Failed query: …") and keeps D1's error as its cause; a
 * batch's error comes unwrapped. Both are read here, so a caller never mistakes a duplicate for a failure.
 */
export function uniqueConstraintOf(error: unknown): string | null {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const match = /UNIQUE constraint failed: ([\w.,\s]+)/.exec(current instanceof Error ? current.message : String(current));
    if (match) return match[1]!.trim();
    current = current instanceof Error ? current.cause : null;
  }
  return null;
}
