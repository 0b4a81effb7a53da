/**
 * The geometry of a racer's position-by-lap chart: one point per lap line passed (per split on a one-lap
 * course), place 1 at the top. Pure, so the server renders the SVG and a test checks where each point lands.
 */

export interface ChartInput {
  name: string;
  rank: number;
  passed: number;
  isLap: boolean;
}

export interface ChartPoint {
  name: string;
  rank: number;
  x: number;
  y: number;
}

export interface PositionChart {
  width: number;
  height: number;
  /** The lowest place drawn (the bottom of the axis). */
  worst: number;
  points: ChartPoint[];
  /** The polyline through the points, "x,y x,y". */
  path: string;
  /** Left and right ends of the plot, top and bottom. */
  plot: { left: number; right: number; top: number; bottom: number };
}

const WIDTH = 320;
const HEIGHT = 160;
const MARGIN = { left: 36, right: 12, top: 12, bottom: 28 };

/** Lap lines when at least two were passed, else every point; null with fewer than one point to draw. */
export function positionChart(points: readonly ChartInput[]): PositionChart | null {
  const laps = points.filter((p) => p.isLap);
  const drawn = laps.length >= 2 ? laps : points;
  if (drawn.length === 0) return null;
  const worst = Math.max(2, ...drawn.map((p) => p.passed));
  const plot = { left: MARGIN.left, right: WIDTH - MARGIN.right, top: MARGIN.top, bottom: HEIGHT - MARGIN.bottom };
  const step = drawn.length === 1 ? 0 : (plot.right - plot.left) / (drawn.length - 1);
  const chartPoints = drawn.map((p, i) => ({
    name: p.name,
    rank: p.rank,
    x: round(drawn.length === 1 ? (plot.left + plot.right) / 2 : plot.left + i * step),
    y: round(plot.top + ((p.rank - 1) / (worst - 1)) * (plot.bottom - plot.top)),
  }));
  return { width: WIDTH, height: HEIGHT, worst, points: chartPoints, path: chartPoints.map((p) => `${p.x},${p.y}`).join(" "), plot };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
