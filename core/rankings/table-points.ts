/**
 * Ranking points by a points table (issue 27, decision 0064): a competition's finishers placed by time, equal
 * times sharing a place (1, 1, 3), and each place earning the table's points (1st the first entry); places past
 * the table earn 0. More is better, as in a World Cup list. Pure: no I/O.
 */

/** The table's points of each finisher, best first. */
export function tableResultPoints(finishers: readonly { racerId: string; time: number }[], table: readonly number[]): { racerId: string; points: number }[] {
  const ordered = [...finishers].sort((a, b) => a.time - b.time);
  let place = 0;
  return ordered.map((f, i) => {
    if (i === 0 || ordered[i - 1]!.time !== f.time) place = i + 1;
    return { racerId: f.racerId, points: table[place - 1] ?? 0 };
  });
}

/** Where a table first rises (its 1-based place), else null: a table never gives a later place more. */
export function tableRise(table: readonly number[]): number | null {
  const rise = table.findIndex((points, i) => i > 0 && points > table[i - 1]!);
  return rise > 0 ? rise + 1 : null;
}
