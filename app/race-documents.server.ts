/**
 * The steps every race setup page shares for its documents (courses, timing points, devices, start groups,
 * result formats): read them typed, find the one a form is about, save and delete through the RaceRoom,
 * which checks them whole and refuses a delete while something uses the document.
 */
import { redirect } from "@remix-run/cloudflare";
import type { z } from "zod";
import type { RaceDocumentKind, StoredDocument } from "../schema/race/documents";
import type { FieldErrors } from "./components/form-kit";
import { afterSave, pageUrl, parseForm, refuse, type PostedForm } from "./forms/posted-form.server";
import type { RaceAccess } from "./race-admin.server";

export type Room = RaceAccess["room"];

/** A race's documents of one kind, typed (the RPC stub's generic return loses the kind). */
export async function documentsOf<K extends RaceDocumentKind>(room: Room, kind: K): Promise<StoredDocument<K>[]> {
  return (await room.documents(kind)) as unknown as StoredDocument<K>[];
}

/** The document a form is about, or a 404 when it is gone (deleted in another tab). */
export function requireDocument<T extends { id: string }>(documents: readonly T[], id: string | null): T {
  const found = id ? documents.find((d) => d.id === id) : undefined;
  if (!found) throw new Response("Not found", { status: 404 });
  return found;
}

/** The "create" and "save" steps every document page shares: parse, save in the RaceRoom, back to the list. */
export async function saveDocumentIntent<S extends z.ZodType>(
  { room, author }: Pick<RaceAccess, "room" | "author">,
  kind: RaceDocumentKind,
  posted: PostedForm,
  base: string,
  schema: S,
  changesOf: (value: z.output<S>) => Record<string, unknown> | FieldErrors | null = (value) => value as Record<string, unknown>,
  check: (changes: Record<string, unknown>) => FieldErrors | null = () => null,
) {
  const parsed = parseForm(schema, posted);
  if (!parsed.ok) return parsed.reply;
  const changes = changesOf(parsed.value) as Record<string, unknown>;
  const problem = check(changes);
  if (problem) return refuse(posted, problem);
  const result = await room.saveDocument(kind, posted.intent === "save" ? posted.target : null, changes, author);
  return afterSave(posted, result, pageUrl(base, posted.intent === "create" ? "created" : "saved", result.ok ? (result.value as { id: string }).id : null));
}

/** The "delete" step every document page shares: refused while something still uses the document. */
export async function deleteDocumentIntent(
  { room, author }: Pick<RaceAccess, "room" | "author">,
  kind: RaceDocumentKind,
  posted: PostedForm,
  base: string,
  id: string,
) {
  const deleted = await room.deleteDocument(kind, id, author);
  if (!deleted.ok) return refuse(posted, { form: deleted.message }, deleted.status);
  return redirect(pageUrl(base, "deleted"));
}
