/**
 * Who a racer is across a ranking scheme's races (decision 0054): the licence number when the race has one
 * (normalised as validation lists are, so "AB-0077" and "ab0077" match), else the platform person, else the
 * folded name with the birth year, else with the club (the series' rule, decision 0048).
 */
import { normaliseNumber } from "../registration/valid-numbers";
import { foldName } from "../series/identity";

export interface IdentityFields {
  licence: string | null;
  person: string | null;
  name: string;
  birthYear: number | null;
  club: string | null;
}

export function rankingIdentity(racer: IdentityFields): string {
  const licence = racer.licence ? normaliseNumber(racer.licence) : "";
  if (licence) return `l:${licence}`;
  if (racer.person) return `p:${racer.person}`;
  if (racer.birthYear !== null) return `n:${foldName(racer.name)}|${racer.birthYear}`;
  return `n:${foldName(racer.name)}|${foldName(racer.club ?? "")}`;
}
