/**
 * Lists in the list format and list filters (docs/api/list-format.md). Parsing is the server's own code
 * from schema/wire, so both sides agree on null versus the empty string.
 */
import { csvCell } from "../core/entity/csv";
import { API_LIST_CONTENT_TYPE, parseApiList, type ListColumn, type ListRow } from "../schema/wire/api-list";
import { ListFormatError } from "./errors";

/** A filter as the server takes it (one CSV record), or its conditions, each `field` `operator` `value`. */
export type ListFilters = string | readonly string[];

export interface ListOptions {
  /** 1–10000; the server's default is 100. */
  limit?: number;
  /** The server's default is 0. */
  offset?: number;
  filters?: ListFilters;
  /** A field, or `-field` for descending; the server's default is creation order. */
  sort?: string;
}

export interface ListResult {
  readonly columns: readonly ListColumn[];
  readonly rows: ListRow[];
  /** All matching rows (X-Total-Count); null when the header could not be read. */
  readonly total: number | null;
  /** The reply as sent, CSV with typed header cells. */
  readonly csv: string;
}

/** Joins conditions into one CSV record; a condition holding a comma or quote is quoted. */
export function encodeFilters(filters: ListFilters): string {
  return typeof filters === "string" ? filters : filters.map((condition) => csvCell(condition)).join(",");
}

/**
 * Releases an unread body so Node can reuse the connection. Not awaited: cancelling one branch of a
 * cloned (teed) body settles only once the other branch is cancelled too.
 */
export function discardBody(response: Response): void {
  response.body?.cancel().catch(() => undefined);
}

function mediaType(contentType: string | null): string | null {
  return contentType?.split(";")[0]?.trim().toLowerCase() || null;
}

/** Reads a list reply; anything but text/x-z4-api-list is a ListFormatError naming what came instead. */
export async function readApiList(response: Response): Promise<ListResult> {
  const contentType = response.headers.get("Content-Type");
  if (mediaType(contentType) !== API_LIST_CONTENT_TYPE) {
    discardBody(response);
    throw new ListFormatError(contentType);
  }
  const csv = await response.text();
  const { columns, rows } = parseApiList(csv);
  const totalText = response.headers.get("X-Total-Count");
  const total = totalText !== null && /^\d+$/.test(totalText.trim()) ? Number(totalText) : null;
  return { columns, rows, total, csv };
}
