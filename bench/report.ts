/** One benchmark figure as one JSON line on stdout (logs go to stderr). */
export function report(name: string, value: number, unit: string, extra: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ name, value: Math.round(value * 100) / 100, unit, ...extra })}\n`);
}
