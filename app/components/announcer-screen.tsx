import { useEffect, useMemo, useRef, useState } from "react";
import { formatDiff, formatRaceTime } from "../../core/time/format";
import type { AnnouncerView } from "../../schema/wire/announcer-view";
import { useAnnouncer } from "../hooks/use-announcer";
import {
  dueText,
  keyAction,
  KEYS,
  latestOf,
  leaderSentence,
  leadersOf,
  ordinal,
  PANE_LABELS,
  PANES,
  placeIn,
  placeText,
  precallOf,
  stepGroup,
  typicalText,
  type Pane,
} from "../results/announcer-screen";
import { LiveStatus } from "./live-status";

export interface AnnouncerRace {
  id: string;
  name: string;
  timezone: string;
}

/**
 * The announcer screen (decision 0045): precall, latest finishers and leader changes side by side on a
 * landscape tablet (one at a time, by tabs, on a narrower screen), in large type, live, with keys for
 * everything. Its rows come from the RaceRoom; this only chooses what to show.
 */
export function AnnouncerScreen({ race, formats, initial }: { race: AnnouncerRace; formats: { id: string; name: string }[]; initial: AnnouncerView }) {
  const { live, view, clock } = useAnnouncer(race.id, initial);
  const [pane, setPane] = useState<Pane>("precall");
  const [groupId, setGroupId] = useState<string | null>(null);
  const panes = useRef<Partial<Record<Pane, HTMLElement | null>>>({});
  const timeOfDay = useMemo(
    () => new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23", timeZone: race.timezone }),
    [race.timezone],
  );
  const groups = view.groups;
  const shownGroup = groups.some((g) => g.id === groupId) ? groupId : null;
  const groupName = (id: string) => groups.find((g) => g.id === id)?.name ?? "";

  const choose = (next: Pane) => {
    setPane(next);
    panes.current[next]?.focus({ preventScroll: true });
    panes.current[next]?.scrollIntoView({ block: "nearest", inline: "nearest" });
  };
  const latestChoose = useRef(choose);
  latestChoose.current = choose;
  const latestGroups = useRef({ groups, shownGroup });
  latestGroups.current = { groups, shownGroup };

  // Keys work anywhere on the screen except while typing in a control.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName))) return;
      const action = keyAction(event);
      if (!action) return;
      event.preventDefault();
      if (action.kind === "pane") latestChoose.current(action.pane);
      else if (action.kind === "group") setGroupId(stepGroup(latestGroups.current.groups, latestGroups.current.shownGroup, action.step));
      else toggleFullScreen();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const precall = precallOf(view, shownGroup, clock);
  const latest = latestOf(view, shownGroup);
  const leaders = leadersOf(view, shownGroup);
  const precision = view.displayPrecision;
  const time = (us: number) => timeOfDay.format(new Date(us / 1000));
  const paneProps = (id: Pane) => ({
    id: `pane-${id}`,
    ref: (el: HTMLElement | null) => void (panes.current[id] = el),
    className: "announcer-pane",
    "data-active": String(pane === id),
    "aria-labelledby": `pane-${id}-heading`,
    tabIndex: -1,
  });

  return (
    <div className="announcer" data-pane={pane}>
      <header className="announcer-header">
        <h1>
          {race.name} <span className="announcer-format">{view.name}</span>
        </h1>
        {formats.length > 1 ? (
          <nav aria-label="Announcer formats">
            <ul className="format-links">
              {formats.map((f) => (
                <li key={f.id}>
                  <a href={`?format=${f.id}`} aria-current={f.id === view.formatId ? "page" : undefined}>
                    {f.name}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        {groups.length > 1 ? (
          <label className="announcer-group">
            Group{" "}
            <select value={shownGroup ?? ""} onChange={(e) => setGroupId(e.target.value || null)}>
              <option value="">All groups</option>
              {groups.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <LiveStatus state={live} />
        <button type="button" className="button-secondary" onClick={toggleFullScreen}>
          Full screen
        </button>
      </header>
      <nav className="announcer-tabs" aria-label="Panes">
        {PANES.map((id, i) => (
          <button key={id} type="button" aria-controls={`pane-${id}`} aria-pressed={pane === id} onClick={() => choose(id)}>
            <kbd>{i + 1}</kbd> {PANE_LABELS[id]}
          </button>
        ))}
      </nav>
      <div className="announcer-panes">
        <section {...paneProps("precall")}>
          <h2 id="pane-precall-heading">
            {PANE_LABELS.precall} <span className="count">{precall.length}</span>
          </h2>
          {precall.length === 0 ? (
            <p className="empty-state">
              {view.precallPoints.length === 0
                ? "This race has no precall point. List a device on a timing point with the mode Precall, and racers it reads appear here."
                : `Nobody is on the way. Racers appear here as they pass ${view.precallPoints.join(" or ")}.`}
            </p>
          ) : (
            // Not a live region: its countdowns change every second, which a screen reader would read out each time.
            <ol className="announcer-list">
              {precall.map((p) => {
                const place = placeIn(p, shownGroup);
                return (
                  <li key={p.racerId} className="announcer-row precall-row" data-bib={p.bib ?? ""}>
                    <span className="a-bib">{p.bib ?? ""}</span>
                    <span className="a-name">
                      {p.name}
                      <small>{[p.club, place ? placeText(place) : "No split yet"].filter(Boolean).join(" · ")}</small>
                    </span>
                    <span className="a-due" title={typicalText(p)}>
                      {p.next} {dueText(p.expectedAt, clock) || "· no estimate yet"}
                      {p.expectedElapsed !== null ? <small>expected {formatRaceTime(p.expectedElapsed, 0)}</small> : null}
                    </span>
                  </li>
                );
              })}
            </ol>
          )}
        </section>
        <section {...paneProps("latest")}>
          <h2 id="pane-latest-heading">{PANE_LABELS.latest}</h2>
          {latest.length === 0 ? (
            <p className="empty-state">No finishers yet.</p>
          ) : (
            <ol className="announcer-list" aria-live="polite">
              {latest.map((f) => (
                <li key={`${f.groupId}:${f.racerId}`} className="announcer-row finisher-row" data-bib={f.bib ?? ""}>
                  <span className="a-rank">{f.rank === null ? "" : ordinal(f.rank)}</span>
                  <span className="a-bib">{f.bib ?? ""}</span>
                  <span className="a-name">
                    {f.name}
                    <small>{[shownGroup === null && groups.length > 1 ? groupName(f.groupId) : null, f.club].filter(Boolean).join(" · ")}</small>
                  </span>
                  <span className="a-time">
                    {f.time === null ? "" : formatRaceTime(f.time, precision)}
                    {f.sameTime ? ` ${view.sameTimeDisplay}` : ""}
                    <small>{formatDiff(f.diff, precision)}</small>
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>
        <section {...paneProps("leaders")}>
          <h2 id="pane-leaders-heading">{PANE_LABELS.leaders}</h2>
          {leaders.length === 0 ? (
            <p className="empty-state">Nobody has led yet. The first racer past a timing point leads.</p>
          ) : (
            <ol className="announcer-list" aria-live="polite">
              {leaders.map((c) => (
                <li key={`${c.groupId}:${c.time}:${c.racerId}`} className="announcer-row leader-row" data-bib={c.bib ?? ""}>
                  <time className="a-clock" dateTime={new Date(c.time / 1000).toISOString()}>
                    {time(c.time)}
                  </time>
                  <span className="a-sentence">
                    {leaderSentence(c, groupName(c.groupId))}
                    <small>
                      {formatRaceTime(c.elapsed, precision)}
                      {c.previous ? ` · before: ${c.previous.bib === null ? "" : `${c.previous.bib} `}${c.previous.name}` : ""}
                    </small>
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
      <footer className="announcer-keys" aria-label="Keys">
        <ul>
          {KEYS.filter((k) => k.key !== "G" || groups.length > 1).map((k) => (
            <li key={k.key}>
              <kbd>{k.key}</kbd> {k.label}
            </li>
          ))}
        </ul>
      </footer>
    </div>
  );
}

// Some tablets' browsers have no full screen (iPhone Safari); the button then does nothing rather than fail.
function toggleFullScreen(): void {
  if (document.fullscreenElement) void document.exitFullscreen?.().catch(() => undefined);
  else void document.documentElement.requestFullscreen?.().catch(() => undefined);
}
