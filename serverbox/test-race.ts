/** A small race package, as the platform sends it, for the box's tests: one finish reader, a point-to-point course, three racers. */
import { racePackageSchema } from "./race";

export const START_MS = Date.UTC(2027, 0, 16, 14, 0, 0);
export const START_US = START_MS * 1000;
const doc = (kind: string, id: string, data: Record<string, unknown>) => ({ id, kind, ordinal: 1, data });

/** A point-to-point race as the platform's race package sends it: one reader at the finish, three racers. */
export const pkg = racePackageSchema.parse({
  race: { id: "race-1", name: "Box Classic", club_name: "Nordic Demo Club", start_time: START_MS, end_time: null, timezone: "America/Toronto" },
  devices: [{ id: "reader", name: "Finish reader" }],
  racers: [],
  results_setup: {
    settings: { timing_mode: "p2p", lap_count: 1, start_mode: "mass", precision: 1, calc_precision: 1 },
    documents: {
      TimingDevice: [doc("TimingDevice", "reader", { type: "impinj", name: "Finish reader", offset: 0 })],
      TimingPoint: [doc("TimingPoint", "finish", { name: "Finish", devices_list: [{ id: "reader", mode: "timing" }] })],
      Course: [doc("Course", "course", { name: "5 km", points_list: [{ id: "p-finish", point: "finish", mode: "lap", name: "Finish" }] })],
      ResultFormat: [doc("ResultFormat", "results", { name: "Results", is_public: true, group_type: "all" })],
    },
    racers: [1, 2, 3].map((i) => ({ id: `r${i}`, data: { first_name: `Racer${i}`, last_name: "Test", bib: i, chip: `C${i}`, course: "course" } })),
  },
});
