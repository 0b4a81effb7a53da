import type { LiveState } from "../hooks/race-socket";

const labels: Record<LiveState, string> = {
  connecting: "Connecting to live results…",
  live: "Live: results update as they come in",
  offline: "Connection lost. Reconnecting…",
  removed: "These results are no longer published. Reload the page for what is.",
};

/** Says plainly whether a results page is live, and that it reconnects by itself. */
export function LiveStatus({ state }: { state: LiveState }) {
  return (
    <p className={`live-status live-status-${state}`} role="status" data-live-state={state}>
      <span className="live-dot" aria-hidden="true" />
      {labels[state]}
      <noscript> (live updates need JavaScript; reload the page for the latest results)</noscript>
    </p>
  );
}
