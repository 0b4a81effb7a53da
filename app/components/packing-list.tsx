import type { PackingGroup } from "../../core/shipping/packing";

/** A packing list by box (auto-pack key): each type's count, what was asked and what came included, and how to pack it. */
export function PackingList({ groups }: { groups: readonly PackingGroup[] }) {
  if (groups.length === 0) return <p className="empty-state">Nothing to pack yet.</p>;
  return (
    <>
      {groups.map((g) => (
        <section key={g.key} className="packing-group">
          <h3>Pack together: {g.key}</h3>
          <ul className="plain-list">
            {g.lines.map((l) => (
              <li key={l.key}>
                <strong>{l.quantity}</strong> × {l.name}
                {l.included > 0 ? ` (${l.requested} asked, ${l.included} included)` : ""}
                {l.isTracked ? " · numbered" : ""}
                {l.isRentable ? " · rental" : ""}
              </li>
            ))}
          </ul>
          {g.instructions.map((text) => (
            <p key={text} className="hint" style={{ whiteSpace: "pre-line" }}>
              {text}
            </p>
          ))}
        </section>
      ))}
    </>
  );
}
