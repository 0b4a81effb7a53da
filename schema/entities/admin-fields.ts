/** Field schemas and the club ownership the admin registry's classes share (admin-classes.ts, equipment-classes.ts). */
import * as z from "zod";
import { field, type EntityField, type EntityReference } from "./registry";

export const nameText = z.string().trim().min(1).max(200);
export const shortText = z.string().trim().max(200);
export const longText = z.string().max(20_000);
export const code = (max: number) => z.string().trim().max(max);
export const email = z.email().max(320);
// Only web addresses: these are shown as links and images, where a javascript: URL would run.
export const httpUrl = z.url({ protocol: /^https?$/ }).max(2000);
export const country = z.string().regex(/^[A-Z]{2}$/, "country is a two-letter code");
export const year = z.number().int().min(1900).max(2200);
export const isoDate = z.iso.date();
export const epochMs = z.number().int().min(0).max(8_640_000_000_000_000);
/** Money is integer cents, never negative here, at most $1,000,000. */
export const cents = z.number().int().min(0).max(100_000_000);
export const keyText = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "a key is lowercase letters, digits, _ and -, at most 64");

export type ClubTable = { clubId: EntityField["column"]; siteId: EntityField["column"] };

/** The owning club, set once on create, and its site, copied from the club (clubReference). */
export function clubFields(table: ClubTable): EntityField[] {
  return [field("club", table.clubId, "string", { createOnly: true }), field("site", table.siteId, "string", { writable: false })];
}

// The site is the club's, so a club admin cannot place a row on another club's site.
export const clubReference: EntityReference[] = [{ field: "club", classname: "Club", copy: { site: "site" } }];
export const clubOwners = { clubId: "club", siteId: "site" } as const;
