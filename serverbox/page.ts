/**
 * The box's own page at http://127.0.0.1:<port>/: where it stands (paired club, race, reads stored and
 * synced, last sync, online or offline) and its live results, ranked by the platform's engine. Plain HTML
 * that refreshes itself every few seconds: a timing laptop needs no script to read it.
 */
import { formatRaceTime } from "../core/time/format";
import type { RacerResult } from "../core/timing/model";
import { compareKeys, rankSorted } from "../core/timing/rank";
import type { FormatSnapshot } from "../schema/wire/race-socket";

export interface BoxStatus {
  name: string;
  serial: string;
  paired: boolean;
  pairingNote: string | null;
  clubId: string | null;
  clubName: string | null;
  race: { id: string; name: string } | null;
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

export function renderPage(status: BoxStatus, snapshots: FormatSnapshot[], races: { id: string; name: string }[], notice: string | null): string {
  const facts: [string, string][] = [
    ["Serverbox", `${status.name} (${status.serial})`],
    ["Paired club", status.paired ? (status.clubName ?? status.clubId ?? "") : (status.pairingNote ?? "Not paired yet")],
    ["Race", status.race ? status.race.name : "None taken yet"],
    ["Reads stored", String(status.readsStored)],
    ["Reads synced", String(status.readsSynced)],
    ["Last sync", when(status.lastSync)],
    ["Platform", `${onlineText(status.online)} (${status.server})`],
  ];
  if (status.syncError) facts.push(["Sync stopped", status.syncError]);
  const choice =
    races.length === 0
      ? ""
      : `<form method="post" action="/race"><label>Time a race <select name="raceId">${races
          .map((r) => `<option value="${escapeHtml(r.id)}"${r.id === status.race?.id ? " selected" : ""}>${escapeHtml(r.name)}</option>`)
          .join("")}</select></label> <button type="submit">Take this race</button></form>`;
  const results = snapshots.map((s) => `<section><h2>${escapeHtml(s.name)}</h2>${s.groups.map((g) => groupTable(s, g)).join("")}</section>`).join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="3"><title>${escapeHtml(status.race?.name ?? "Serverbox")}</title>
<style>body{font-family:system-ui,sans-serif;margin:1rem 2rem}dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}table{border-collapse:collapse}td,th{padding:.15rem .6rem;text-align:left;border-bottom:1px solid #ddd}</style></head>
<body><h1>Serverbox</h1>${notice ? `<p role="status">${escapeHtml(notice)}</p>` : ""}<dl>${facts.map(([k, v]) => `<dt>${k}</dt><dd data-fact="${escapeHtml(k)}">${escapeHtml(v)}</dd>`).join("")}</dl>${choice}${results}</body></html>`;
}
