/** The chips a depot's racks left at races for racers (decision 0073), for the chips page and a rack's page. */
export interface IssuedChipRow {
  hexCode: string;
  place: string;
  race: string | null;
  bib: number | null;
  issued: string;
  rack: string | null;
}

export function IssuedChips({ chips, showRack }: { chips: readonly IssuedChipRow[]; showRack: boolean }) {
  if (chips.length === 0) return <p className="empty-state">None.</p>;
  return (
    <div className="table-scroll">
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">Hex code</th>
            <th scope="col">Where</th>
            <th scope="col">Race</th>
            <th scope="col">Bib</th>
            <th scope="col">Issued (UTC)</th>
            {showRack ? <th scope="col">From rack</th> : null}
          </tr>
        </thead>
        <tbody>
          {chips.map((c) => (
            <tr key={c.hexCode}>
              <td>{c.hexCode}</td>
              <td>{c.place}</td>
              <td>{c.race ?? ""}</td>
              <td>{c.bib ?? ""}</td>
              <td>{c.issued}</td>
              {showRack ? <td>{c.rack ?? ""}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
