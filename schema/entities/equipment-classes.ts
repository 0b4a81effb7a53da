/** The equipment classes of the admin registry: timing devices, timing servers, shipping depots and their inventory. */
import * as z from "zod";
import { DEVICE_TYPE_KEYS } from "../../core/timing/devices";
import { timingDevices, serverboxes, shippingDepots, inventoryTypes, inventoryItems } from "../d1";
import { nameText, shortText, code, email, httpUrl, country, cents, keyText, clubFields, clubReference, clubOwners } from "./admin-fields";
import { entityClass, field, uuidField, createdField } from "./registry";

export const TimingDevice = entityClass({
  classname: "TimingDevice",
  description: "A timing device in a club's equipment register (races keep their own device setups)",
  area: "devices",
  table: timingDevices,
  owners: clubOwners,
  references: clubReference,
  fields: [
    uuidField(timingDevices.id),
    createdField(timingDevices.createdAt),
    ...clubFields(timingDevices),
    field("name", timingDevices.name, "string", { schema: shortText }),
    field("humanname", timingDevices.humanname, "string", { schema: shortText }),
    // The keys of the spec's device type table, kept in one place (core/timing/devices.ts).
    field("device_type", timingDevices.deviceType, "string", { schema: z.enum(DEVICE_TYPE_KEYS) }),
    field("device_number", timingDevices.deviceNumber, "int", { schema: z.number().int().min(0).max(99_999) }),
    field("serial", timingDevices.serial, "string", { schema: code(100) }),
    field("accuracy", timingDevices.accuracy, "float", { schema: z.number().positive().max(60) }),
    field("precision", timingDevices.precision, "int", { schema: z.number().int().min(0).max(6) }),
    field("channels", timingDevices.channels, "int", { schema: z.number().int().min(1).max(64) }),
    field("notes", timingDevices.notes, "string", { schema: z.string().max(5000) }),
  ],
});

export const Serverbox = entityClass({
  classname: "Serverbox",
  description: "A timing server a club runs: an Internet server, a local serverbox or a web client",
  area: "servers",
  table: serverboxes,
  owners: clubOwners,
  references: clubReference,
  fields: [
    uuidField(serverboxes.id),
    createdField(serverboxes.createdAt),
    ...clubFields(serverboxes),
    field("name", serverboxes.name, "string", { schema: nameText }),
    field("subtype", serverboxes.subtype, "string", { schema: z.enum(["webserver", "serverbox", "webclient"]) }),
    field("serial", serverboxes.serial, "string", { schema: code(100) }),
    field("software_version", serverboxes.softwareVersion, "string", { schema: code(50) }),
    // Set when the server syncs through the timing API, never by a client.
    field("last_seen_time", serverboxes.lastSeenTime, "time", { writable: false }),
    field("is_active", serverboxes.isActive, "bool"),
  ],
});

export const ShippingDepot = entityClass({
  classname: "ShippingDepot",
  description: "A depot that ships and takes back rental equipment",
  area: "depots",
  table: shippingDepots,
  owners: { depotId: "uuid" },
  fields: [
    uuidField(shippingDepots.id),
    createdField(shippingDepots.createdAt),
    field("name", shippingDepots.name, "string", { schema: nameText }),
    field("email", shippingDepots.email, "string", { schema: email }),
    field("address", shippingDepots.address, "string", { schema: z.string().trim().max(1000) }),
    field("country", shippingDepots.country, "string", { schema: country }),
    field("is_active", shippingDepots.isActive, "bool"),
  ],
});

const inventoryTypeFieldSchema = z.strictObject({
  key: keyText,
  label: nameText,
  type: z.enum(["text", "number", "bool"]),
});

export const InventoryType = entityClass({
  classname: "InventoryType",
  description: "A kind of equipment in the platform-wide inventory catalogue",
  area: "depots",
  table: inventoryTypes,
  // The catalogue belongs to no depot: System Administrators with the depots flag keep it; depot staff read it.
  owners: {},
  platformWide: { field: null },
  fields: [
    uuidField(inventoryTypes.id),
    createdField(inventoryTypes.createdAt),
    field("key", inventoryTypes.key, "string", { schema: keyText }),
    field("name", inventoryTypes.name, "string", { schema: nameText }),
    field("image", inventoryTypes.image, "string", { schema: httpUrl }),
    field("description", inventoryTypes.description, "string", { schema: z.string().max(5000) }),
    field("unit_cost", inventoryTypes.unitCost, "int", { schema: cents }),
    field("is_active", inventoryTypes.isActive, "bool"),
    field("sw_version", inventoryTypes.swVersion, "string", { schema: code(50) }),
    field("hw_version", inventoryTypes.hwVersion, "string", { schema: code(50) }),
    field("is_rentable", inventoryTypes.isRentable, "bool"),
    field("is_tracked", inventoryTypes.isTracked, "bool"),
    field("hts", inventoryTypes.hts, "string", { schema: z.string().regex(/^\d{4}(\.?\d{2}){0,3}$/, "hts is a tariff code such as 8471.50") }),
    field("origin", inventoryTypes.origin, "string", { schema: country }),
    field("weight", inventoryTypes.weight, "float", { schema: z.number().min(0).max(100_000) }),
    field("declared_value", inventoryTypes.declaredValue, "int", { schema: cents }),
    field("category", inventoryTypes.category, "string", { schema: shortText }),
    field("purchase_price", inventoryTypes.purchasePrice, "int", { schema: cents }),
    field("tags", inventoryTypes.tags, "json", { schema: z.array(z.string().trim().min(1).max(100)).max(50) }),
    field("included", inventoryTypes.included, "json", {
      schema: z.array(z.union([keyText, z.strictObject({ key: keyText, quantity: z.number().int().min(1).max(1000) })])).max(50),
    }),
    field("auto_pack_key", inventoryTypes.autoPackKey, "string", { schema: keyText }),
    field("packing_instructions", inventoryTypes.packingInstructions, "string", { schema: z.string().max(5000) }),
    field("ordinal", inventoryTypes.ordinal, "int", { schema: z.number().int().min(0).max(1_000_000) }),
    field("fields", inventoryTypes.fields, "json", { schema: z.array(inventoryTypeFieldSchema).max(50) }),
  ],
});

export const InventoryItem = entityClass({
  classname: "InventoryItem",
  description: "One piece of equipment held by a shipping depot",
  area: "depots",
  table: inventoryItems,
  owners: { depotId: "depot" },
  references: [
    { field: "depot", classname: "ShippingDepot", copy: {} },
    { field: "type", classname: "InventoryType", copy: {} },
  ],
  fields: [
    uuidField(inventoryItems.id),
    createdField(inventoryItems.createdAt),
    field("depot", inventoryItems.depotId, "string", { createOnly: true }),
    field("type", inventoryItems.typeId, "string"),
    field("name", inventoryItems.name, "string", { schema: shortText }),
    field("number", inventoryItems.number, "string", { schema: code(100) }),
  ],
});
