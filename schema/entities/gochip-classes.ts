/**
 * GoChip classes (platform.md section 3 names them only; decision 0068): lots, racks, chips and tests belong
 * to a shipping depot (the depots area, as its inventory items do); replacement sessions to a race. Tests and
 * replacements are made by their own flows (an Activator's upload, the racer page through the RaceRoom), so
 * the data API and the admin area only read them.
 */
import * as z from "zod";
import { GOCHIP_STATUSES } from "../../core/gochips/chips";
import { gochipLots, gochipRacks, gochipReplacements, gochips, gochipTests } from "../d1";
import { createdField, entityClass, field, uuidField } from "./registry";

const depotReference = { field: "depot", classname: "ShippingDepot", copy: {} } as const;
const hexCode = z.string().regex(/^[0-9A-F]{4,32}$/, "hex_code is 4 to 32 hexadecimal digits in capitals (0-9, A-F)");
const notes = z.string().max(5000);

export const GochipLot = entityClass({
  classname: "GochipLot",
  description: "A manufacturing batch of GoChips received at a depot",
  area: "depots",
  table: gochipLots,
  owners: { depotId: "depot" },
  references: [depotReference],
  fields: [
    uuidField(gochipLots.id),
    createdField(gochipLots.createdAt),
    field("depot", gochipLots.depotId, "string", { createOnly: true }),
    field("lot_number", gochipLots.lotNumber, "string", { schema: z.string().trim().min(1).max(100) }),
    field("received_on", gochipLots.receivedOn, "string", { schema: z.iso.date() }),
    field("chip_count", gochipLots.chipCount, "int", { schema: z.number().int().min(0).max(1_000_000) }),
    field("notes", gochipLots.notes, "string", { schema: notes }),
  ],
});

export const GochipRack = entityClass({
  classname: "GochipRack",
  description: "A numbered rack of GoChip slots at a depot, shipped with a shipment",
  area: "depots",
  table: gochipRacks,
  owners: { depotId: "depot" },
  references: [depotReference],
  fields: [
    uuidField(gochipRacks.id),
    createdField(gochipRacks.createdAt),
    field("depot", gochipRacks.depotId, "string", { createOnly: true }),
    field("number", gochipRacks.number, "string", { schema: z.string().trim().min(1).max(50) }),
    field("slot_count", gochipRacks.slotCount, "int", { schema: z.number().int().min(1).max(1000) }),
    field("shipment", gochipRacks.shipmentId, "string", { schema: z.uuid() }),
    field("notes", gochipRacks.notes, "string", { schema: notes }),
  ],
});

export const Gochip = entityClass({
  classname: "Gochip",
  description: "One GoChip by its hex code, in a rack's slot, with what its tests said",
  area: "depots",
  table: gochips,
  owners: { depotId: "depot" },
  references: [depotReference],
  fields: [
    uuidField(gochips.id),
    createdField(gochips.createdAt),
    field("depot", gochips.depotId, "string", { createOnly: true }),
    field("hex_code", gochips.hexCode, "string", { schema: hexCode }),
    field("lot", gochips.lotId, "string", { schema: z.uuid() }),
    field("rack", gochips.rackId, "string", { schema: z.uuid() }),
    field("slot", gochips.slot, "int", { schema: z.number().int().min(1).max(1000) }),
    field("status", gochips.status, "string", { schema: z.enum(GOCHIP_STATUSES) }),
    field("failures", gochips.failures, "int", { schema: z.number().int().min(0).max(1000) }),
    field("last_tested_time", gochips.lastTestedAt, "time", { writable: false }),
    // Written by a replacement at a race and cleared by loading the chip into a rack (decision 0073).
    field("issued_race", gochips.issuedRaceId, "string", { writable: false }),
    field("issued_racer", gochips.issuedRacerId, "string", { writable: false }),
    field("issued_bib", gochips.issuedBib, "int", { writable: false }),
    field("issued_time", gochips.issuedAt, "time", { writable: false }),
    field("issued_rack", gochips.issuedRackId, "string", { writable: false }),
    field("issued_shipment", gochips.issuedShipmentId, "string", { writable: false }),
  ],
});

export const GochipTest = entityClass({
  classname: "GochipTest",
  description: "A GoChip Activator's test of a rack: the chips that answered and those that did not",
  area: "depots",
  table: gochipTests,
  owners: { depotId: "depot" },
  readOnly: true,
  fields: [
    uuidField(gochipTests.id),
    createdField(gochipTests.createdAt),
    field("depot", gochipTests.depotId, "string"),
    field("rack", gochipTests.rackId, "string"),
    field("activator", gochipTests.activator, "string"),
    field("user", gochipTests.userId, "string"),
    field("answered", gochipTests.answered, "json"),
    field("silent", gochipTests.silent, "json"),
    field("unknown", gochipTests.unknown, "json"),
  ],
});

export const GochipReplacementSession = entityClass({
  classname: "GochipReplacementSession",
  description: "A racer's lost or faulty GoChip replaced at a race",
  area: "races",
  table: gochipReplacements,
  owners: { raceId: "race", clubId: "club" },
  readOnly: true,
  fields: [
    uuidField(gochipReplacements.id),
    createdField(gochipReplacements.createdAt),
    field("club", gochipReplacements.clubId, "string"),
    field("race", gochipReplacements.raceId, "string"),
    field("racer", gochipReplacements.racerId, "string"),
    field("old_chip", gochipReplacements.oldChip, "string"),
    field("new_chip", gochipReplacements.newChip, "string"),
    field("reason", gochipReplacements.reason, "string"),
    field("depot", gochipReplacements.depotId, "string"),
    field("user", gochipReplacements.userId, "string"),
  ],
});

export const gochipEntityClasses = [GochipLot, GochipRack, Gochip, GochipTest, GochipReplacementSession] as const;
