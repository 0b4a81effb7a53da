/**
 * Drag-to-reorder for a table of rows that also has Move up and Move down buttons (so it works from the
 * keyboard and before hydration). Once hydrated, a dropped row posts `intent` with the row as `target` and
 * its new `toIndex` through a fetcher, and the list is shown in the new order until the server answers.
 */
import { useFetcher } from "@remix-run/react";
import { useEffect, useState, type DragEvent, type HTMLAttributes } from "react";
import { movedTo } from "../../core/lists/move";

export function useDragReorder<T extends { id: string }>(options: {
  rows: readonly T[];
  enabled: boolean;
  intent: string;
  action: string;
  describe: (row: T) => string;
}) {
  const { rows, enabled, intent, action, describe } = options;
  const fetcher = useFetcher();
  const [hydrated, setHydrated] = useState(false);
  const [dragged, setDragged] = useState<string | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState("");
  useEffect(() => setHydrated(true), []);

  const pending = fetcher.formData;
  const shown = pending?.get("intent") === intent ? movedTo(rows, String(pending.get("target")), Number(pending.get("toIndex"))) : [...rows];
  const draggable = enabled && hydrated;

  const drop = (event: DragEvent, index: number) => {
    event.preventDefault();
    const id = dragged ?? event.dataTransfer.getData("text/plain");
    setDragged(null);
    setOver(null);
    const row = shown.find((r) => r.id === id);
    if (!row || shown[index]?.id === id) return;
    setAnnouncement(`Moved “${describe(row)}” to position ${index + 1} of ${shown.length}.`);
    fetcher.submit({ intent, target: id, toIndex: String(index) }, { method: "post", action });
  };

  /** The drag handlers and classes of one row; nothing before hydration. */
  const rowProps = (row: T, index: number): HTMLAttributes<HTMLTableRowElement> & { draggable?: boolean } => {
    if (!draggable) return {};
    const className = [dragged === row.id ? "dragging" : "", over === index && dragged !== row.id ? "drop-target" : ""].filter(Boolean).join(" ");
    return {
      draggable: true,
      className: className || undefined,
      onDragStart: (event) => {
        event.dataTransfer.setData("text/plain", row.id);
        event.dataTransfer.effectAllowed = "move";
        setDragged(row.id);
      },
      onDragOver: (event) => {
        if (!dragged) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = "move";
        setOver(index);
      },
      onDrop: (event) => drop(event, index),
      onDragEnd: () => {
        setDragged(null);
        setOver(null);
      },
    };
  };

  return { shown, draggable, announcement, rowProps };
}
