import { apiNotFound } from "../http";
import type { RequestContext } from "../request-context";

/** Mount point of the data service (`/data-api/*`): OAuth, entities, lists and sockets come with the data-service issue. */
export async function handleDataApi(request: Request, _context: RequestContext): Promise<Response> {
  return apiNotFound(new URL(request.url).pathname);
}
