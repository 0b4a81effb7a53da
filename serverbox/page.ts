/**
 * The box's own page at http://127.0.0.1:<port>/: where it stands (paired club, online or offline), each race
 * it times with its sync state (stored, synced, queued, last sync, a refusal), and each race's live results,
 * ranked by the platform's engine. Plain HTML that refreshes itself every few seconds: a timing laptop needs
 * no script to read it.
 */
import { formatRaceTime } from "../core/time/format";
import type { RacerResult } from "../core/timing/model";
import { compareKeys, rankSorted } from "../core/timing/rank";
import type { FormatSnapshot } from "../schema/wire/race-socket";

/** One race the box times, as the page and status.json show it. */
export interface RaceStatus {
  id: string;
  name: string;
  /** Lines in its log: device reads, keypad entries and range data. */
  stored: number;
  synced: number;
  queued: number;
  lastSync: number | null;
  /** The refusal that stopped this race's sync (the others go on), or null. */
  error: string | null;
}

export interface BoxStatus {
  name: string;
  serial: string;
  paired: boolean;
  pairingNote: string | null;
  clubId: string | null;
  clubName: string | null;
  /** The first race timed (status.json's readers before several races). */
  race: { id: string; name: string } | null;
  races: RaceStatus[];
  readsStored: number;
  readsSynced: number;
  lastSync: number | null;
  online: boolean | null;
  syncError: string | null;
  server: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const when = (ms: number | null) => (ms === null ? "Never" : new Date(ms).toLocaleString());

export function onlineText(online: boolean | null): string {
  return online === null ? "Not tried yet" : online ? "Online" : "Offline";
}

/** One group's rows in its order, ranked as the results pages rank them. */
function groupTable(snapshot: FormatSnapshot, group: FormatSnapshot["groups"][number]): string {
  const rows = snapshot.rows.filter((r) => r.groups.includes(group.id)).sort((a, b) => compareKeys(a.key, b.key));
  const ranked = rankSorted(rows as unknown as RacerResult[], group.sameTimeThreshold);
  const body = ranked
    .map(({ result, rank, shownTime }) => {
      const row = result as unknown as FormatSnapshot["rows"][number];
      const time = shownTime === null ? row.statusText || "" : formatRaceTime(shownTime, snapshot.displayPrecision);
      return `<tr data-racer="${escapeHtml(row.racerId)}"><td>${rank ?? ""}</td><td>${row.bib ?? ""}</td><td>${escapeHtml(row.name)}</td><td>${row.laps}</td><td>${escapeHtml(time)}</td></tr>`;
    })
    .join("");
  return `<h3>${escapeHtml(group.name)}</h3><table><thead><tr><th>Place</th><th>Bib</th><th>Name</th><th>Laps</th><th>Time</th></tr></thead><tbody>${body}</tbody></table>`;
}

/** What a race's sync is doing, in words. */
export function raceSyncText(race: RaceStatus, status: Pick<BoxStatus, "online" | "paired">): string {
  if (race.error) return `Sync stopped: ${race.error}`;
  if (race.queued === 0) return "Up to date";
  if (!status.paired) return `${race.queued} waiting for pairing`;
  return status.online === false ? `${race.queued} waiting for the platform` : `Sending ${race.queued}`;
}

function racesTable(status: BoxStatus): string {
  if (status.races.length === 0) return "<p>No race taken yet.</p>";
  const rows = status.races
    .map(
      (r) =>
        `<tr data-race="${escapeHtml(r.id)}"><td>${escapeHtml(r.name)}</td><td data-col="stored">${r.stored}</td><td data-col="synced">${r.synced}</td><td data-col="queued">${r.queued}</td><td>${escapeHtml(when(r.lastSync))}</td><td data-col="state">${escapeHtml(raceSyncText(r, status))}</td><td><form method="post" action="/race/stop"><input type="hidden" name="raceId" value="${escapeHtml(r.id)}"><button type="submit">Stop timing</button></form></td></tr>`,
    )
    .join("");
  return `<table><thead><tr><th>Race</th><th>Stored</th><th>Synced</th><th>Queued</th><th>Last sync</th><th>Sync</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The web keypads (decision 0084): where they open, the code that pairs one, and those paired. */
export interface KeypadsView {
  urls: string[];
  code: string;
  clients: { id: string; name: string; pairedAt: number; lastSeen: number | null }[];
}

function keypadsSection(keypads: KeypadsView): string {
  if (keypads.urls.length === 0)
    return `<h2>Web keypads</h2><p>Phones and tablets on the venue's network can key entries here: start the serverbox with <code>--lan &lt;port&gt;</code>.</p>`;
  const open = keypads.urls.map((u) => `<a href="${escapeHtml(u)}">${escapeHtml(u)}</a>`).join(" or ");
  const rows = keypads.clients
    .map(
      (c) =>
        `<tr data-keypad="${escapeHtml(c.id)}"><td>${escapeHtml(c.name)}</td><td>${escapeHtml(when(c.pairedAt))}</td><td>${escapeHtml(when(c.lastSeen))}</td><td><form method="post" action="/webclients/forget"><input type="hidden" name="id" value="${escapeHtml(c.id)}"><button type="submit">Forget</button></form></td></tr>`,
    )
    .join("");
  const list =
    keypads.clients.length === 0
      ? "<p>No keypad paired yet.</p>"
      : `<table><thead><tr><th>Keypad</th><th>Paired</th><th>Last entry or visit</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
  return `<h2>Web keypads</h2><p>On a phone on this network, open ${open} and type the code <strong data-fact="Keypad code">${keypads.code.slice(0, 3)} ${keypads.code.slice(3)}</strong>.</p>${list}`;
}

export function renderPage(
  status: BoxStatus,
  results: { name: string; snapshots: FormatSnapshot[] }[],
  races: { id: string; name: string }[],
  notice: string | null,
  keypads: KeypadsView,
): string {
  const facts: [string, string][] = [
    ["Serverbox", `${status.name} (${status.serial})`],
    ["Paired club", status.paired ? (status.clubName ?? status.clubId ?? "") : (status.pairingNote ?? "Not paired yet")],
    ["Reads stored", String(status.readsStored)],
    ["Reads synced", String(status.readsSynced)],
    ["Last sync", when(status.lastSync)],
    ["Platform", `${onlineText(status.online)} (${status.server})`],
  ];
  const timed = new Set(status.races.map((r) => r.id));
  const choices = races.filter((r) => !timed.has(r.id));
  // Another race is added beside those timed: a sprint and a pursuit at one stadium sync together.
  const choice =
    choices.length === 0
      ? ""
      : `<form method="post" action="/race"><label>Also time <select name="raceId">${choices
          .map((r) => `<option value="${escapeHtml(r.id)}">${escapeHtml(r.name)}</option>`)
          .join("")}</select></label> <button type="submit">Take this race</button></form>`;
  const sections = results
    .map(({ name, snapshots }) =>
      snapshots.map((s) => `<section><h2>${escapeHtml(name)}: ${escapeHtml(s.name)}</h2>${s.groups.map((g) => groupTable(s, g)).join("")}</section>`).join(""),
    )
    .join("");
  const title = status.races.length === 1 ? status.races[0]!.name : "Serverbox";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="3"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:1rem 2rem}dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}table{border-collapse:collapse}td,th{padding:.15rem .6rem;text-align:left;border-bottom:1px solid #ddd}form{margin:0}</style></head>
<body><h1>Serverbox</h1>${notice ? `<p role="status">${escapeHtml(notice)}</p>` : ""}<dl>${facts.map(([k, v]) => `<dt>${k}</dt><dd data-fact="${escapeHtml(k)}">${escapeHtml(v)}</dd>`).join("")}</dl><h2>Races</h2>${racesTable(status)}${choice}${keypadsSection(keypads)}${sections}</body></html>`;
}
