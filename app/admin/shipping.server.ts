/**
 * The server half of /shipments/{depot} and its shipment pages (issue 27, decision 0051): the guard (the
 * depot's Shipping Depot Admins and Users, System Administrators with the depots flag), the forms' zod shapes,
 * and each intent handed to the shipping services, whose outcome becomes a redirect with a notice or the
 * form again with its errors.
 */
import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import * as z from "zod";
import { can } from "../../core/access/policy";
import { openDb } from "../../schema/d1";
import { depotTarget } from "../../workers/services/invitation-targets";
import { markFound, mayAtDepot, numbersOf, receiveStock, type DepotCaller, type ShippingOutcome } from "../../workers/services/depot-stock";
import {
  closeShipment,
  createShipment,
  deleteShipment,
  markItem,
  markPacked,
  markReturned,
  packItem,
  recordCounts,
  reopenPacking,
  setRequest,
  ship,
  unpackItem,
} from "../../workers/services/shipments";
import { requireSession } from "../auth.server";
import { parseForm, refuse, type PostedForm } from "../forms/posted-form.server";
import { submissionId } from "../forms/field-rules";
import { requireTargetPage } from "./people.server";

/** The depot page's guard: the depot's staff, or whoever may give its roles. */
export async function requireDepotAccess(request: Request, context: AppLoadContext, depotId: string) {
  const session = requireSession(request, context);
  const target = /^[0-9a-f-]{36}$/.test(depotId) ? await depotTarget(openDb(context.env.DB), depotId) : null;
  const page = await requireTargetPage({ env: context.env, session }, target, (principal) => can(principal, "view", { area: "depots", id: depotId, depotId }));
  const caller: DepotCaller = { principal: page.principal, userId: page.user.id, depotId };
  return {
    ...page,
    target: target!,
    caller,
    may: { create: mayAtDepot(caller, "create"), edit: mayAtDepot(caller, "edit"), remove: mayAtDepot(caller, "delete") },
  };
}

export type DepotAccess = Awaited<ReturnType<typeof requireDepotAccess>>;

export const SHIPPING_NOTICES: Record<string, string> = {
  received: "Stock received.",
  created: "Shipment created.",
  saved: "Your changes are saved.",
  packed: "Packed.",
  shipped: "Shipped.",
  returned: "Return recorded.",
  closed: "Shipment closed.",
  deleted: "Shipment deleted.",
  found: "Marked as found: the item is available again.",
};

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((v) => (v === "" ? null : v))
    .optional()
    .transform((v) => v ?? null);
const optionalDate = z
  .union([z.literal(""), z.iso.date("Invalid Date.  Dates should be in the format YYYY-MM-DD")])
  .optional()
  .transform((v) => (v ? v : null));
const count = (message: string) => z.coerce.number({ error: message }).int(message).min(0, message).max(100_000, message);
const submission = submissionId;

const receiveSchema = z.object({
  submission,
  type: z.uuid("Choose a type"),
  // Only untracked types take a count; empty is none (the service says what is missing).
  quantity: z
    .string()
    .trim()
    .regex(/^\d{0,6}$/, "Enter a whole number from 1")
    .optional()
    .transform((v) => (v ? Number(v) : 0)),
  numbers: z.string().max(20_000).optional().default(""),
});

const shipmentSchema = z
  .object({
    submission,
    destination: z.string().regex(/^(race|club):[0-9a-f-]{36}$/, "Choose a race or a club to ship to"),
    address: optionalText(1000),
    contact_name: optionalText(200),
    contact_email: z.union([z.literal(""), z.email("Email addresses should be in the format name@host.")]).optional(),
    contact_phone: optionalText(40),
    ship_by: optionalDate,
    use_from: optionalDate,
    return_by: optionalDate,
    notes: optionalText(5000),
  })
  .refine((v) => !v.ship_by || !v.return_by || v.return_by >= v.ship_by, {
    path: ["return_by"],
    message: "The return date must be on or after the ship-by date",
  });

function answer(posted: PostedForm, outcome: ShippingOutcome, to: string) {
  return outcome.ok ? redirect(to) : refuse(posted, outcome.errors, outcome.status);
}

/** The depot page's own intents (receive stock, start a shipment, an item found); null for others. */
export async function depotAction(access: DepotAccess, posted: PostedForm, now: number) {
  const base = `/shipments/${access.caller.depotId}`;
  const db = access.db;
  switch (posted.intent) {
    case "receive": {
      const parsed = parseForm(receiveSchema, posted);
      if (!parsed.ok) return parsed.reply;
      const numbers = numbersOf(parsed.value.numbers);
      if (numbers.length > 500) return refuse(posted, { numbers: "Receive at most 500 numbered items at once" });
      const done = await receiveStock(
        db,
        access.caller,
        { submission: parsed.value.submission, typeId: parsed.value.type, quantity: parsed.value.quantity, numbers },
        now,
      );
      return answer(posted, done, `${base}?saved=received`);
    }
    case "create": {
      const parsed = parseForm(shipmentSchema, posted);
      if (!parsed.ok) return parsed.reply;
      const v = parsed.value;
      const made = await createShipment(
        db,
        access.caller,
        {
          submission: v.submission,
          destination: v.destination,
          address: v.address,
          contactName: v.contact_name,
          contactEmail: v.contact_email || null,
          contactPhone: v.contact_phone,
          shipBy: v.ship_by,
          useFrom: v.use_from,
          returnBy: v.return_by,
          notes: v.notes,
        },
        now,
      );
      return made.ok ? redirect(`${base}/${made.id}?saved=created`) : refuse(posted, made.errors, made.status);
    }
    case "found":
      return answer(posted, await markFound(db, access.caller, posted.target ?? ""), `${base}?saved=found`);
    default:
      return null;
  }
}

const requestSchema = z.object({ type: z.uuid("Choose a type"), quantity: count("Enter a whole number from 0") });
const packSchema = z.object({ number: z.string().trim().min(1, "Scan or type the item's number").max(100) });
const countsSchema = z.object({ type: z.uuid(), back: count("Enter a whole number from 0"), missing: count("Enter a whole number from 0") });

/** One shipment page's intents. */
export async function shipmentAction(access: DepotAccess, id: string, posted: PostedForm, now: number) {
  const base = `/shipments/${access.caller.depotId}/${id}`;
  const db = access.db;
  const caller = access.caller;
  switch (posted.intent) {
    case "request": {
      const parsed = parseForm(requestSchema, posted);
      if (!parsed.ok) return parsed.reply;
      return answer(posted, await setRequest(db, caller, id, parsed.value.type, parsed.value.quantity, now), `${base}?saved=saved`);
    }
    case "pack": {
      const parsed = parseForm(packSchema, posted);
      if (!parsed.ok) return parsed.reply;
      return answer(posted, await packItem(db, caller, id, parsed.value.number, now), `${base}?saved=saved#pack`);
    }
    case "unpack":
      return answer(posted, await unpackItem(db, caller, id, posted.target ?? ""), `${base}?saved=saved`);
    case "packed":
      return answer(posted, await markPacked(db, caller, id, now), `${base}?saved=packed`);
    case "reopen":
      return answer(posted, await reopenPacking(db, caller, id, now), `${base}?saved=saved`);
    case "ship":
      return answer(posted, await ship(db, caller, id, now), `${base}?saved=shipped`);
    case "back":
    case "missing":
      return answer(posted, await markItem(db, caller, id, posted.target ?? "", posted.intent, now), `${base}?saved=returned`);
    case "counts": {
      const parsed = parseForm(countsSchema, posted);
      if (!parsed.ok) return parsed.reply;
      const v = parsed.value;
      return answer(posted, await recordCounts(db, caller, id, v.type, v.back, v.missing, now), `${base}?saved=returned`);
    }
    case "returned":
      return answer(posted, await markReturned(db, caller, id, now), `${base}?saved=returned`);
    case "close":
      return answer(posted, await closeShipment(db, caller, id, now), `${base}?saved=closed`);
    case "delete":
      return answer(posted, await deleteShipment(db, caller, id), `/shipments/${caller.depotId}?saved=deleted`);
    default:
      return refuse(posted, { form: "Unknown action" });
  }
}
