/**
 * The Membership System's people and memberships (decision 0036) as registry classes (decision 0057): the
 * division pages and the data API change them through the entity service with the same rules and history.
 */
import * as z from "zod";
import { MEMBER_CLASSES } from "../../core/forms/model";
import { divisionMembers, divisionPeople } from "../d1";
import { clubOwners, email, epochMs, isoDate, nameText, shortText } from "./admin-fields";
import { createdField, entityClass, field, uuidField, type EntityReference } from "./registry";

const jsonObject = z.record(z.string(), z.unknown());

const divisionReference: EntityReference = { field: "division", classname: "Division", copy: { club: "club", site: "site" } };

/**
 * A person as a division knows them, with a member number kept from season to season (decision 0036). People
 * are made by paid registrations and the division page's "Add a member", which number them; here they are
 * corrected. Their key (how a registration finds them again) follows their names (workers/services/member-keys.ts).
 */
export const DivisionPerson = entityClass({
  classname: "DivisionPerson",
  description: "A person a division knows, with their member number",
  area: "divisions",
  table: divisionPeople,
  owners: clubOwners,
  references: [divisionReference],
  changeOnly: true,
  fields: [
    uuidField(divisionPeople.id),
    createdField(divisionPeople.createdAt),
    field("division", divisionPeople.divisionId, "string", { writable: false }),
    field("club", divisionPeople.clubId, "string", { writable: false }),
    field("site", divisionPeople.siteId, "string", { writable: false }),
    field("member_number", divisionPeople.memberNumber, "int", { writable: false }),
    field("first_name", divisionPeople.firstName, "string", { schema: nameText }),
    field("last_name", divisionPeople.lastName, "string", { schema: nameText }),
    field("birth_date", divisionPeople.birthDate, "string", { schema: isoDate }),
    field("gender", divisionPeople.gender, "string", { schema: shortText }),
    field("email", divisionPeople.email, "string", { schema: email }),
    field("lang", divisionPeople.lang, "string", { schema: z.enum(["en", "fr"], "Choose English or French") }),
  ],
});

/** DivisionMember (spec: person_id, season_id, attributes, programs, created_time): one person's membership of one season. */
export const DivisionMember = entityClass({
  classname: "DivisionMember",
  description: "One person's membership of a division for one season",
  area: "divisions",
  table: divisionMembers,
  owners: clubOwners,
  references: [divisionReference, { field: "person", classname: "DivisionPerson", copy: {} }],
  fields: [
    uuidField(divisionMembers.id),
    createdField(divisionMembers.createdAt),
    field("division", divisionMembers.divisionId, "string", { createOnly: true }),
    field("club", divisionMembers.clubId, "string", { writable: false }),
    field("site", divisionMembers.siteId, "string", { writable: false }),
    field("person", divisionMembers.personId, "string", { createOnly: true }),
    field("season", divisionMembers.seasonId, "string", { schema: z.uuid() }),
    field("member_class", divisionMembers.memberClass, "string", { schema: z.enum(MEMBER_CLASSES) }),
    field("attributes", divisionMembers.attributes, "json", { schema: jsonObject }),
    field("programs", divisionMembers.programs, "json", { schema: z.array(z.string().trim().min(1).max(100)).max(100) }),
    // A membership ends with its season: the rule holds it to the season's end (divisionMemberRule).
    field("expires_at", divisionMembers.expiresAt, "time", { schema: epochMs }),
    field("individual", divisionMembers.individualId, "string", { writable: false }),
  ],
});
