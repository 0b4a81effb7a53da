/**
 * Where a shipment stands and what may happen next (issue 27, decision 0051): draft → packed → shipped →
 * returned → closed. A shipment is packed when every tracked item of its list has a number; it returns when
 * each rentable item sent is marked back or missing, and cannot close while any is unaccounted for.
 */
import type { PackingLine } from "./packing";

export const SHIPMENT_STATES = ["draft", "packed", "shipped", "returned", "closed"] as const;
export type ShipmentState = (typeof SHIPMENT_STATES)[number];

export const SHIPMENT_STATE_LABELS: Readonly<Record<ShipmentState, string>> = {
  draft: "Draft",
  packed: "Packed",
  shipped: "Shipped",
  returned: "Returned",
  closed: "Closed",
};

/** Open shipments hold their tracked items: an item is in at most one of them. */
export const isOpen = (state: ShipmentState) => state !== "closed";

export const SHIPPING_MESSAGES = {
  notDraft: "Only a draft shipment's request can be changed",
  notPacking: "Items are packed while the shipment is a draft",
  notPacked: "Pack every tracked item before marking the shipment packed",
  notShippable: "Only a packed shipment can be shipped",
  notShipped: "Returns are recorded once the shipment has shipped",
  unaccounted: (n: number) => `${n} rented ${n === 1 ? "item is" : "items are"} still out: mark each back or missing before closing`,
  notClosable: "Only a shipped or returned shipment can be closed",
  stillOut: (n: number) => `${n} rented ${n === 1 ? "item is" : "items are"} still out: mark each back or missing, and the shipment is returned`,
  noSuchItem: "There is no item with this number at this depot",
  notOnList: "This item's type is not on the packing list",
  alreadyPacked: "This item is already packed in another open shipment",
  notAvailable: "This item is not available: it is out or missing",
  enoughPacked: "Every item of this type is already packed",
  duplicateNumber: "An item with this number is already in this depot",
  emptyRequest: "Ask for at least one item, or put a GoChip rack on this shipment",
  shortStock: (name: string, have: number, need: number) => `Only ${have} ${name} in stock; the packing list needs ${need}`,
  countsDontAddUp: "Back and missing must add up to what was sent",
  destination: "Choose a race or a club to ship to",
} as const;

/** Per tracked type: how many the list needs and how many numbers are packed. */
export function packingProgress(lines: readonly PackingLine[], packedByType: ReadonlyMap<string, number>) {
  const listed = lines.filter((l) => l.isTracked).map((l) => ({ key: l.key, name: l.name, needed: l.quantity, packed: packedByType.get(l.key) ?? 0 }));
  // Items packed before the request shrank are extra: they must come out before the shipment is packed.
  const extra = [...packedByType]
    .filter(([key, n]) => n > 0 && !listed.some((l) => l.key === key))
    .map(([key, n]) => ({ key, name: key, needed: 0, packed: n }));
  return [...listed, ...extra].map((p) => ({ ...p, done: p.packed === p.needed }));
}

/** Whether every tracked line has all its items packed (untracked lines are counted at shipping). */
export const fullyPacked = (progress: ReadonlyArray<{ done: boolean }>) => progress.every((p) => p.done);

/** Why a shipment may not close (rented items still out), or null when it may. */
export function closeProblem(state: ShipmentState, stillOut: number): string | null {
  if (state !== "shipped" && state !== "returned") return SHIPPING_MESSAGES.notClosable;
  return stillOut > 0 ? SHIPPING_MESSAGES.unaccounted(stillOut) : null;
}

/** Untracked items sent back: what came back and what is missing must add up to what was sent. */
export function countsAddUp(sent: number, back: number, missing: number): boolean {
  return Number.isInteger(back) && Number.isInteger(missing) && back >= 0 && missing >= 0 && back + missing === sent;
}
