/**
 * The service layer's rules that the data API's generic entity writes pass too, by class: the write as it
 * would be stored (the stored row with the sent fields over it), checked by the same function the pages
 * use, so both accept and refuse the same things with the same messages. A class without a rule here has
 * only its fields' own shapes (schema/entities/classes.ts).
 */
import type { Db } from "../../schema/d1";
import {
  divisionMemberRule,
  divisionPersonRule,
  eventPageRule,
  gochipRackRule,
  gochipRule,
  inventoryTypeRule,
  newsletterRule,
  pageRule,
  passRule,
  pointsSeriesRule,
  pointsSystemRule,
  rankingSchemeRule,
  siteRule,
  validationSystemRule,
} from "./admin-entity-rules";
import { elementWriteProblems, registrationWriteProblems } from "./registration-forms";

/** Field errors keyed by the entity's paths ("price_1", "config.max"), or null when the write is sound. */
/** `env` reaches a race's room, for a rule about its courses and start groups (a form's race links). */
export type WriteRule = (db: Db, id: string, next: Readonly<Record<string, unknown>>, env: Env) => Promise<Record<string, string> | null>;

const WRITE_RULES: Readonly<Record<string, WriteRule>> = {
  FormElement: elementWriteProblems,
  Registration: registrationWriteProblems,
  EventPage: eventPageRule,
  Pass: passRule,
  ValidationSystem: validationSystemRule,
  EmailNewsletter: newsletterRule,
  WhitelabelSite: siteRule,
  PointsSeries: pointsSeriesRule,
  PointsSystem: pointsSystemRule,
  InventoryType: inventoryTypeRule,
  Page: pageRule,
  RankingScheme: rankingSchemeRule,
  DivisionMember: divisionMemberRule,
  DivisionPerson: divisionPersonRule,
  GochipRack: gochipRackRule,
  Gochip: gochipRule,
};

export function writeRuleOf(classname: string): WriteRule | undefined {
  return WRITE_RULES[classname];
}
