/**
 * The developer-facing errors of timing.md section 8, word for word. Engine and setup code throw
 * TimingError with one of these, so callers can tell a rule broken by the setup from a bug.
 */
export const TIMING_ERRORS = {
  multipleCategories: "Multiple categories, cannot seed!",
  noCourse: "Cannot calculate results without a course",
  startGroupNotFound: "StartGroup not found",
  metaStartGroupsNotFreeSegment: "Meta start groups requested on a non-free-segment race",
  invalidGroupTime: "Invalid group time",
  roundBeforeCalculation: "Calculations for a round requested before calculation",
  noColumnSpec: "No column spec defined",
  notAField: "not a field",
  invalidField: "invalid field",
  raceMandatory: "Race is mandatory",
  courseRequiredForSplit: "Course required for setting a split time",
  setupModeNone: "Setup mode cannot be none",
  roundNumberStart: "Round number must start at 1",
  noStartGroupForHeats: "No start group for heats result group",
  noSuchSegment: "That segment does not exist",
  multipleCourses: "Racer has multiple courses?",
  teamFieldOnRacer: "Cannot set team field or entity field on a racer",
  baseSetupNotImplemented: "Base setup methods not implemented",
  precisionAboveSix: "Precision above 6 is unsupported in truncation",
} as const;

export type TimingErrorCode = keyof typeof TIMING_ERRORS;

export class TimingError extends Error {
  readonly code: TimingErrorCode;
  constructor(code: TimingErrorCode, detail?: string) {
    super(detail ? `${TIMING_ERRORS[code]}: ${detail}` : TIMING_ERRORS[code]);
    this.name = "TimingError";
    this.code = code;
  }
}
