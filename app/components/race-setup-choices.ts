/** Choices the race setup forms offer, shared by the pages and the server module that parses them. */

export const TIMING_MODE_CHOICES = [
  { value: "p2p", label: "Point to point" },
  { value: "lap", label: "Standard lap" },
  { value: "timelimit", label: "Time limit" },
  { value: "triathlon", label: "Triathlon" },
  { value: "enduro", label: "Enduro" },
] as const;

export const POINT_MODE_CHOICES = [
  { value: "start", label: "Start" },
  { value: "chipstart", label: "Chip start" },
  { value: "lap", label: "Lap (finish line)" },
  { value: "split", label: "Split" },
] as const;

/** Triathlon sections (timing.md section 9); blank: not a triathlon point. */
export const SECTION_CHOICES = [
  { value: "", label: "None" },
  { value: "1", label: "1 Swim" },
  { value: "2", label: "2 T1" },
  { value: "3", label: "3 Bike" },
  { value: "4", label: "4 T2" },
  { value: "5", label: "5 Run" },
] as const;

/** Biathlon: where a course point sits on the shooting range; blank: not on it. */
export const RANGE_ROLE_CHOICES = [
  { value: "", label: "Not on the range" },
  { value: "in", label: "Range in" },
  { value: "out", label: "Range out" },
] as const;

export const DEVICE_MODE_CHOICES = [
  { value: "timing", label: "Timing" },
  { value: "backup", label: "Backup" },
  { value: "precall", label: "Precall (announcer)" },
  { value: "oncourse", label: "On course" },
] as const;

export const FORMAT_KINDS = ["public", "unlisted", "announcer", "live"] as const;
export type FormatKind = (typeof FORMAT_KINDS)[number];

export const GROUP_TYPES = ["all", "course", "startgroup", "field"] as const;

export const GROUP_TYPE_LABELS: Record<(typeof GROUP_TYPES)[number], string> = {
  all: "All Racers in One List",
  course: "Group Racers by Course",
  startgroup: "Group by Start Order",
  field: "Create New Result Groups",
};

export const CRITERION_OPS = [
  { value: "eq", label: "is" },
  { value: "ne", label: "is not" },
  { value: "lt", label: "is less than" },
  { value: "le", label: "is at most" },
  { value: "gt", label: "is greater than" },
  { value: "ge", label: "is at least" },
  { value: "blank", label: "is blank" },
  { value: "notblank", label: "is not blank" },
] as const;

/** How an age class counts age (core/timing/age-classes.ts AGE_BASES); race day is the default (decision 0034). */
export const AGE_BASIS_LABELS = {
  race_day: { label: "Age on race day", hint: "as most running, cycling and triathlon events count it" },
  year_end: { label: "Age on 31 December of the race's year", hint: "birth-year classes, as FIS, IBU and USSA count them" },
} as const;
