/** A request body as a plain object, from JSON or a form; an unreadable body is an empty object. */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("Content-Type") ?? "";
  try {
    if (type.includes("application/json")) {
      const value: unknown = await request.json();
      return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    }
    if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data")) {
      return Object.fromEntries((await request.formData()).entries()) as Record<string, unknown>;
    }
  } catch {
    return {};
  }
  return {};
}
