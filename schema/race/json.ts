import * as z from "zod";

/**
 * Loosely typed values of fields whose later issues give them their exact shape (seed lists, heat formats,
 * shootings…): JSON two levels deep. Not z.json(): its recursive type is too deep for RPC stub types.
 */
const scalar = z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]);
const inner = z.union([scalar, z.array(scalar).max(1000), z.record(z.string().max(200), scalar)]);
export const looseJson = z.union([inner, z.array(inner).max(1000), z.record(z.string().max(200), inner)]);
export type LooseJson = z.infer<typeof looseJson>;
