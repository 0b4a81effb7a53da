/** One message per field from a validator's issues (zod's shape), for showing next to each input. */
export type FieldErrors = Record<string, string>;

interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * The first message per field. By default the key is the top-level field (a form's input name);
 * `fullPath` keys nested fields as "points_list.0.point". Issues about the whole object go under "form".
 */
export function fieldErrorsOf(issues: readonly Issue[], options: { fullPath?: boolean } = {}): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = (options.fullPath ? issue.path.map(String).join(".") : String(issue.path[0] ?? "")) || "form";
    errors[key] ??= issue.message;
  }
  return errors;
}
