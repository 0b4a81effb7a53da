/**
 * The server half of /shipments/{depot}/chips and /shipments/{depot}/racks/{rack} (decision 0068): the forms'
 * zod shapes and each intent handed to the GoChip service, answered with a redirect and a notice or the form
 * again with its errors. The guard is the depot page's (requireDepotAccess).
 */
import { redirect } from "@remix-run/cloudflare";
import * as z from "zod";
import { CHIP_PLACE_LABELS, GOCHIP_MESSAGES, parseHexList } from "../../core/gochips/chips";
import type { ShippingOutcome } from "../../workers/services/depot-stock";
import { createLot, createRack, issuedChips, loadChips, recordTest, setRackShipment } from "../../workers/services/gochips";
import { returnChip } from "../../workers/services/gochip-returns";
import type { IssuedChipRow } from "../components/issued-chips";
import { parseForm, refuse, type PostedForm } from "../forms/posted-form.server";
import { submissionId } from "../forms/field-rules";
import type { DepotAccess } from "./shipping.server";

export const GOCHIP_NOTICES: Record<string, string> = {
  lot: "Lot recorded.",
  rack: "Rack added.",
  tested: "Test recorded.",
  loaded: "Chips loaded.",
  shipment: "Your changes are saved.",
  found: "Marked as found.",
  checkedin: "Chip checked in.",
};

/** The depot's chips issued at races and not back in a rack (of one rack they left, one shipment's return, or all), in words. */
export async function issuedChipRows(access: DepotAccess, of: Parameters<typeof issuedChips>[2]): Promise<IssuedChipRow[]> {
  const rows = await issuedChips(access.db, access.target.id, of);
  return rows.map(({ issuedAt, place, hexCode, race, bib, rack }) => ({
    hexCode,
    race,
    bib,
    rack,
    place: CHIP_PLACE_LABELS[place],
    issued: issuedAt === null ? "" : new Date(issuedAt).toISOString().slice(0, 16).replace("T", " "),
  }));
}

/** An Activator's export is a small text file: a 1,000-slot rack is about 30 KB. */
const MAX_UPLOAD_BYTES = 200_000;
const MAX_CODES = 1000;

const submission = submissionId;
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters`)
    .optional()
    .transform((v) => (v ? v : null));
const whole = (min: number, max: number, message: string) => z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);

const lotSchema = z.object({
  submission,
  lot_number: z.string().trim().min(1, "Enter the lot number").max(100, "At most 100 characters"),
  received_on: z
    .union([z.literal(""), z.iso.date("Invalid Date.  Dates should be in the format YYYY-MM-DD")])
    .optional()
    .transform((v) => (v ? v : null)),
  chip_count: z
    .union([z.literal("").transform(() => 0), whole(0, 1_000_000, "Enter a whole number from 0")])
    .optional()
    .default(0),
  notes: optionalText(5000),
});
const rackSchema = z.object({
  submission,
  number: z.string().trim().min(1, "Enter the rack's number").max(50, "At most 50 characters"),
  slot_count: whole(1, 1000, "Enter a whole number from 1 to 1000"),
});
const testSchema = z.object({
  submission,
  rack: z.uuid("Choose the rack you tested"),
  activator: optionalText(200),
  codes: z.string().max(100_000).optional().default(""),
});
/** A slot as typed: a number, else NaN, which the service refuses with the rack's own range ("Choose a slot from 1 to 10"). */
const slotNumber = (text: string) => (/^\d{1,4}$/.test(text) ? Number(text) : Number.NaN);
const loadSchema = z.object({
  lot: z.union([z.literal(""), z.uuid("Choose a lot")]).optional(),
  from: z.string().trim().max(100).optional().default("").transform(slotNumber),
  codes: z.string().max(100_000).optional().default(""),
});
// A chip back at the depot: the hex code (typed or scanned), the rack and slot it goes into (none: loose, for a found chip).
const returnSchema = z.object({
  submission,
  hex_code: z.string().trim().min(1, "Enter the chip's hex code").max(100, "At most 100 characters"),
  rack: z
    .union([z.literal(""), z.uuid("Choose a rack")])
    .optional()
    .transform((v) => v || null),
  // No slot is a loose chip; the rack's slot count is the service's to check.
  slot: z
    .string()
    .trim()
    .max(100)
    .optional()
    .transform((v) => (v ? slotNumber(v) : null)),
});
const shipSchema = z.object({ shipment: z.union([z.literal(""), z.uuid("Choose a shipment")]).optional() });

function answer(posted: PostedForm, outcome: ShippingOutcome, to: string) {
  return outcome.ok ? redirect(to) : refuse(posted, outcome.errors, outcome.status);
}

/** The codes of the uploaded file, else of the box; or why they cannot be read, under `field`. */
async function codesOf(
  posted: PostedForm,
  text: string,
  field: string,
): Promise<{ ok: true; codes: string[] } | { ok: false; errors: Record<string, string> }> {
  const file = posted.files.file;
  if (file && file.size > MAX_UPLOAD_BYTES) return { ok: false, errors: { file: "The file is larger than 200 KB: is it the Activator's list of hex codes?" } };
  const source = file && file.size > 0 ? await file.text() : text;
  const { codes, badLines } = parseHexList(source);
  const where = file && file.size > 0 ? "file" : field;
  if (badLines.length > 0) return { ok: false, errors: { [where]: GOCHIP_MESSAGES.badLines(badLines) } };
  if (codes.length === 0) return { ok: false, errors: { [where]: GOCHIP_MESSAGES.noCodes } };
  if (codes.length > MAX_CODES) return { ok: false, errors: { [where]: `At most ${MAX_CODES} hex codes at once` } };
  return { ok: true, codes };
}

/** The chips page's intents: a lot, a rack, a test upload; null for others. */
export async function chipsAction(access: DepotAccess, posted: PostedForm, now: number) {
  const base = `/shipments/${access.caller.depotId}/chips`;
  switch (posted.intent) {
    case "lot": {
      const parsed = parseForm(lotSchema, posted);
      if (!parsed.ok) return parsed.reply;
      const v = parsed.value;
      const done = await createLot(access.db, access.caller, {
        submission: v.submission,
        lotNumber: v.lot_number,
        receivedOn: v.received_on,
        chipCount: v.chip_count,
        notes: v.notes,
      });
      return answer(posted, done, `${base}?saved=lot`);
    }
    case "rack": {
      const parsed = parseForm(rackSchema, posted);
      if (!parsed.ok) return parsed.reply;
      const v = parsed.value;
      return answer(
        posted,
        await createRack(access.db, access.caller, { submission: v.submission, number: v.number, slotCount: v.slot_count }),
        `${base}?saved=rack`,
      );
    }
    case "test": {
      const parsed = parseForm(testSchema, posted);
      if (!parsed.ok) return parsed.reply;
      const codes = await codesOf(posted, parsed.value.codes, "codes");
      if (!codes.ok) return refuse(posted, codes.errors);
      const v = parsed.value;
      const done = await recordTest(access.db, access.caller, { submission: v.submission, rackId: v.rack, activator: v.activator, codes: codes.codes }, now);
      return answer(posted, done, `${base}?saved=tested#tests`);
    }
    case "found":
    case "checkin": {
      const parsed = parseForm(returnSchema, posted);
      if (!parsed.ok) return parsed.reply;
      const v = parsed.value;
      const done = await returnChip(
        access.db,
        access.caller,
        { submission: v.submission, mode: posted.intent, hexCode: v.hex_code, rackId: v.rack, slot: v.slot },
        now,
      );
      return answer(posted, done, `${base}?saved=${posted.intent === "found" ? "found" : "checkedin"}#returns`);
    }
    default:
      return null;
  }
}

/** A rack page's intents: load chips, ship with a shipment. */
export async function rackAction(access: DepotAccess, rackId: string, posted: PostedForm) {
  const base = `/shipments/${access.caller.depotId}/racks/${rackId}`;
  switch (posted.intent) {
    case "load": {
      const parsed = parseForm(loadSchema, posted);
      if (!parsed.ok) return parsed.reply;
      const codes = await codesOf(posted, parsed.value.codes, "codes");
      if (!codes.ok) return refuse(posted, codes.errors);
      const done = await loadChips(access.db, access.caller, rackId, { codes: codes.codes, from: parsed.value.from, lotId: parsed.value.lot || null });
      return answer(posted, done, `${base}?saved=loaded`);
    }
    case "ship": {
      const parsed = parseForm(shipSchema, posted);
      if (!parsed.ok) return parsed.reply;
      return answer(posted, await setRackShipment(access.db, access.caller, rackId, parsed.value.shipment || null), `${base}?saved=shipment`);
    }
    default:
      return refuse(posted, { form: "Unknown action" });
  }
}
