import type { LiveState } from "../hooks/race-socket";

/** What the page says of its connection; `paused` is the reader's choice (the paged results page offers it). */
export type ShownLiveState = LiveState | "paused";

const labels: Record<ShownLiveState, string> = {
  connecting: "Connecting to live results…",
  live: "Live: results update as they come in",
  offline: "Connection lost. Reconnecting…",
  removed: "These results are no longer published. Reload the page for what is.",
  paused: "Live updates are off: these results stay as they are until you turn them on.",
};

/**
 * Says plainly whether a results page is live, and that it reconnects by itself. With `onToggle`, a button
 * turns live updates off (a phone on a data plan, a printout in progress) and on again.
 */
export function LiveStatus({ state, onToggle }: { state: ShownLiveState; onToggle?: () => void }) {
  return (
    <p className={`live-status live-status-${state}`} role="status" data-live-state={state}>
      <span className="live-dot" aria-hidden="true" />
      {labels[state]}
      <noscript> (live updates need JavaScript; reload the page for the latest results)</noscript>
      {onToggle && state !== "removed" ? (
        <button type="button" className="secondary button-small" onClick={onToggle} aria-pressed={state !== "paused"}>
          {state === "paused" ? "Turn live updates on" : "Turn live updates off"}
        </button>
      ) : null}
    </p>
  );
}
