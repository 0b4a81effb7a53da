/**
 * The keypad: a bib and Enter records a crossing at the chosen timing point now; a bib and a status button
 * sets DNS, DNF, DSQ or OK; in a biathlon, a bib, a shooting and a count records the shooting's misses. Before hydration both forms post to the page's action; after, entries go
 * through the outbox (keypad-queue.ts) straight to the timing API and survive a lost connection.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { BIATHLON_MAX_MISSES, missesText } from "../../core/timing/biathlon";
import type { ManualEntry } from "../../schema/wire/timing-api";
import { useHydrated } from "../hooks/use-hydrated";
import { FormMessage } from "./form-message";
import { newEntryKey, useKeypadQueue, type KeypadQueueTexts, type KeypadState } from "./keypad-queue";

/**
 * The element the keypad's forms are: Remix's Form on the platform (it posts to the page's action before
 * hydration), a plain form on a serverbox's web keypad, which has no Remix and runs only in the browser.
 */
export type KeypadForm = (props: {
  method: "post";
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  "aria-labelledby": string;
  children: ReactNode;
}) => ReactNode;

// Touch targets and type sizes for gloved hands at the finish line; app.css is shared, so they live here.
const KEYPAD_CSS = `
.keypad { display: grid; gap: 1.25rem; max-width: 32rem; }
.keypad fieldset { border: 1px solid #e5e7eb; border-radius: var(--radius); padding: 0.75rem 1rem 1rem; margin: 0; display: grid; gap: 0.6rem; }
.keypad legend { font-weight: 700; font-size: 1.1rem; }
.keypad label { font-weight: 600; }
.keypad select, .keypad input { font: inherit; font-size: 1.6rem; padding: 0.5rem 0.7rem; min-height: 3.25rem; border: 1px solid #9ca3af; border-radius: var(--radius); width: 100%; }
.keypad input[inputmode="numeric"] { font-size: 2.2rem; letter-spacing: 0.1rem; font-variant-numeric: tabular-nums; }
.keypad button { min-height: 3.5rem; font-size: 1.3rem; }
.keypad-status { display: grid; grid-template-columns: repeat(4, 1fr); gap: 0.5rem; }
.keypad-misses { display: grid; grid-template-columns: repeat(6, 1fr); gap: 0.5rem; }
.keypad-log { list-style: none; padding: 0; margin: 0; display: grid; gap: 0.3rem; }
.keypad-log li { display: flex; justify-content: space-between; gap: 0.5rem; padding: 0.4rem 0.6rem; border: 1px solid #e5e7eb; border-radius: var(--radius); font-variant-numeric: tabular-nums; }
.keypad-log .state-pending { color: #92400e; font-weight: 700; }
.keypad-log .state-unknown, .keypad-log .state-rejected { color: #b91c1c; font-weight: 700; }
.keypad-log .state-sent { color: #166534; }
`;

const STATE_LABELS: Record<KeypadState, string> = { pending: "Pending", sent: "Sent", unknown: "Unknown bib", rejected: "Refused" };
const STATUSES = [
  { value: "dns", label: "DNS" },
  { value: "dnf", label: "DNF" },
  { value: "dsq", label: "DSQ" },
  { value: "ok", label: "OK" },
] as const;

export interface KeypadResult {
  notice: string | null;
  error: string | null;
  errors: Record<string, string>;
}

const MISS_COUNTS = Array.from({ length: BIATHLON_MAX_MISSES + 1 }, (_, n) => n);

export function KeypadPad(props: {
  raceId: string;
  timezone: string;
  points: { id: string; name: string }[];
  shootings: number;
  runs: number;
  formKey: string;
  result: KeypadResult | null;
  form: KeypadForm;
  /** What a 401 or 403 from the timing API means where this keypad runs (the platform's words by default). */
  texts?: KeypadQueueTexts;
}) {
  const { raceId, timezone, points, shootings, runs, formKey, result, form: Form, texts } = props;
  const hydrated = useHydrated();
  const { items, problem, pending, add } = useKeypadQueue(raceId, texts);
  const [point, setPoint] = useState(points[0]?.id ?? "");
  const [localError, setLocalError] = useState<string | null>(null);
  const bibInput = useRef<HTMLInputElement>(null);
  const pointStore = `startline:keypad-point:${raceId}`;

  useEffect(() => {
    const stored = localStorage.getItem(pointStore);
    if (stored && points.some((p) => p.id === stored)) setPoint(stored);
  }, [pointStore, points]);

  const clock = new Intl.DateTimeFormat("en-GB", {
    timeZone: timezone,
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    fractionalSecondDigits: 1,
    hourCycle: "h23",
  });

  /** The bib typed in a form, or null after saying what is wrong. */
  const bibOf = (form: HTMLFormElement): number | null => {
    const text = String(new FormData(form).get("bib") ?? "").trim();
    if (!/^\d{1,6}$/.test(text)) {
      setLocalError("Enter a bib number");
      return null;
    }
    setLocalError(null);
    return Number(text);
  };
  const done = (form: HTMLFormElement) => {
    form.reset();
    bibInput.current?.focus();
  };

  const onTime = (event: FormEvent<HTMLFormElement>) => {
    // The moment of the key press is the crossing time, whatever happens after.
    const nowMs = Date.now();
    event.preventDefault();
    const bib = bibOf(event.currentTarget);
    if (bib === null || !point) return;
    const entry: ManualEntry = { kind: "time", key: newEntryKey(), bib, point, time: nowMs * 1000 };
    add(entry, `Bib ${bib} · ${points.find((p) => p.id === point)?.name ?? "?"} · ${clock.format(nowMs)}`);
    done(event.currentTarget);
  };

  const onStatus = (event: FormEvent<HTMLFormElement>) => {
    const nowMs = Date.now();
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const status = STATUSES.find((s) => s.value === submitter?.value);
    const bib = bibOf(event.currentTarget);
    if (bib === null || !status) return;
    const runText = String(new FormData(event.currentTarget).get("run") ?? "");
    const run = runText === "" ? {} : { run: Number(runText) };
    const entry: ManualEntry =
      status.value === "dnf" || status.value === "dsq"
        ? { kind: "status", key: newEntryKey(), bib, status: status.value, time: nowMs * 1000, ...run }
        : { kind: "status", key: newEntryKey(), bib, status: status.value, ...run };
    add(entry, `Bib ${bib} · ${status.label}${"run" in run ? ` (run ${run.run})` : ""} · ${clock.format(nowMs)}`);
    done(event.currentTarget);
  };

  const onRange = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const misses = Number(submitter?.value);
    const shooting = Number(new FormData(event.currentTarget).get("shooting"));
    const bib = bibOf(event.currentTarget);
    if (bib === null || !Number.isInteger(misses) || !Number.isInteger(shooting) || shooting < 1) return;
    add({ kind: "range", key: newEntryKey(), bib, shooting, misses }, `Bib ${bib} · Shooting ${shooting} · ${missesText(misses)}`);
    // The shooting stays chosen: the range officer enters one shooting for racer after racer.
    const bibField = event.currentTarget.elements.namedItem("bib") as HTMLInputElement;
    bibField.value = "";
    bibField.focus();
  };

  if (points.length === 0) return <p className="empty-state">This race has no timing points yet: add one under Timing points first.</p>;

  const errors = result?.errors ?? {};
  return (
    <div className="keypad">
      <style>{KEYPAD_CSS}</style>
      {hydrated ? null : <FormMessage error={result?.error} notice={result?.notice} />}
      {localError ? (
        <p className="form-error" role="alert">
          {localError}
        </p>
      ) : null}
      <Form method="post" onSubmit={hydrated ? onTime : undefined} aria-labelledby="keypad-time-legend">
        <fieldset>
          <legend id="keypad-time-legend">Record a crossing now</legend>
          <input type="hidden" name="intent" value="time" />
          <input type="hidden" name="key" value={formKey} />
          <label htmlFor="keypad-point">Timing point</label>
          <select
            id="keypad-point"
            name="point"
            value={point}
            onChange={(e) => {
              setPoint(e.target.value);
              localStorage.setItem(pointStore, e.target.value);
            }}
            aria-describedby={errors.point ? "keypad-point-error" : undefined}
          >
            {points.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
          {errors.point ? (
            <span id="keypad-point-error" className="form-error">
              {errors.point}
            </span>
          ) : null}
          <label htmlFor="keypad-bib">Bib</label>
          <input
            ref={bibInput}
            id="keypad-bib"
            name="bib"
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete="off"
            enterKeyHint="send"
            required
            aria-describedby={errors.bib ? "keypad-bib-error" : "keypad-bib-hint"}
            aria-invalid={errors.bib ? true : undefined}
          />
          <span id="keypad-bib-hint" className="hint">
            Type the bib and press Enter at the moment the racer crosses.
          </span>
          {errors.bib ? (
            <span id="keypad-bib-error" className="form-error">
              {errors.bib}
            </span>
          ) : null}
          <button type="submit">Record time</button>
        </fieldset>
      </Form>

      <Form method="post" onSubmit={hydrated ? onStatus : undefined} aria-labelledby="keypad-status-legend">
        <fieldset>
          <legend id="keypad-status-legend">Set a status</legend>
          <input type="hidden" name="intent" value="status" />
          <input type="hidden" name="key" value={formKey} />
          {runs > 0 ? (
            <>
              <label htmlFor="keypad-status-run">Run</label>
              <select id="keypad-status-run" name="run" defaultValue="">
                <option value="">Whole race</option>
                {Array.from({ length: runs }, (_, i) => (
                  <option key={i + 1} value={i + 1}>
                    {`Run ${i + 1}`}
                  </option>
                ))}
              </select>
            </>
          ) : null}
          <label htmlFor="keypad-status-bib">Bib</label>
          <input id="keypad-status-bib" name="bib" inputMode="numeric" pattern="[0-9]*" autoComplete="off" required aria-describedby="keypad-status-hint" />
          <span id="keypad-status-hint" className="hint">
            DNF and DSQ are recorded at the time the button is pressed; OK clears a status.
          </span>
          <div className="keypad-status" role="group" aria-label="Status">
            {STATUSES.map((s) => (
              <button key={s.value} type="submit" name="status" value={s.value} className={s.value === "ok" ? "button secondary" : undefined}>
                {s.label}
              </button>
            ))}
          </div>
        </fieldset>
      </Form>

      {shootings > 0 ? (
        <Form method="post" onSubmit={hydrated ? onRange : undefined} aria-labelledby="keypad-range-legend">
          <fieldset>
            <legend id="keypad-range-legend">Record misses at the range</legend>
            <input type="hidden" name="intent" value="range" />
            <input type="hidden" name="key" value={formKey} />
            <label htmlFor="keypad-shooting">Shooting</label>
            <select id="keypad-shooting" name="shooting" defaultValue="1">
              {Array.from({ length: shootings }, (_, i) => (
                <option key={i + 1} value={i + 1}>
                  {`Shooting ${i + 1}`}
                </option>
              ))}
            </select>
            <label htmlFor="keypad-range-bib">Bib</label>
            <input id="keypad-range-bib" name="bib" inputMode="numeric" pattern="[0-9]*" autoComplete="off" required aria-describedby="keypad-range-hint" />
            <span id="keypad-range-hint" className="hint">
              Type the bib, then press the number of missed shots. A second entry for the same shooting replaces the first.
            </span>
            <div className="keypad-misses" role="group" aria-label="Missed shots">
              {MISS_COUNTS.map((n) => (
                <button key={n} type="submit" name="misses" value={n} aria-label={missesText(n)}>
                  {n}
                </button>
              ))}
            </div>
          </fieldset>
        </Form>
      ) : null}

      {hydrated ? (
        <section aria-labelledby="keypad-log-heading">
          <h3 id="keypad-log-heading">Entries on this device</h3>
          <p role="status" aria-live="polite">
            {pending === 0 ? "All entries are sent." : `${pending} ${pending === 1 ? "entry" : "entries"} waiting to be sent.`}
          </p>
          {problem ? (
            <p className="form-error" role="alert">
              {problem}
            </p>
          ) : null}
          {items.length === 0 ? (
            <p className="empty-state">No entries yet.</p>
          ) : (
            <ol className="keypad-log" aria-label="Last 20 entries, newest first">
              {items.slice(0, 20).map((item) => (
                <li key={item.entry.key}>
                  <span>{item.label}</span>
                  <span className={`state-${item.state}`} title={item.message}>
                    {STATE_LABELS[item.state]}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>
      ) : null}
    </div>
  );
}
