import { apiNotFound } from "../http";
import type { RequestContext } from "../request-context";

/** Mount point of the sign-in API (`/_auth/*`); the accounts issue adds its endpoints here. */
export async function handleAuthApi(request: Request, _context: RequestContext): Promise<Response> {
  return apiNotFound(new URL(request.url).pathname);
}
