import { Form, Link } from "@remix-run/react";
import { ourAuthMessages } from "../../core/auth/messages";
import { formatDateTime } from "../format";
import { FormMessage } from "./auth-card";
import type { SessionRow } from "../../workers/auth/session-list";
import { TableHead } from "./setup-table";

/** The pieces of the security page (manage.security.tsx); every form posts back to it with an intent. */

export interface AreaResult {
  area: "password" | "email" | "totp" | "sessions";
  error: string | null;
  notice: string | null;
  codes?: string[];
}

function messageFor(result: AreaResult | undefined, area: AreaResult["area"]) {
  return result?.area === area ? <FormMessage error={result.error} notice={result.notice} /> : null;
}

/** Asks for a fresh sign-in before showing a form whose typed values a re-authentication would lose. */
function ConfirmFirst({ reauthHref }: { reauthHref: string }) {
  return (
    <p>
      {ourAuthMessages.reauthRequired} <Link to={reauthHref}>{ourAuthMessages.reauthTitle}</Link>
    </p>
  );
}

export function PasswordSection({
  hasPassword,
  reauthHref,
  result,
  busy,
}: {
  hasPassword: boolean;
  reauthHref: string | null;
  result?: AreaResult;
  busy: boolean;
}) {
  // Without a password there is nothing to type as proof: the account confirms with a fresh sign-in first.
  const confirmFirst = !hasPassword && reauthHref;
  return (
    <section className="auth-card" aria-labelledby="password-heading">
      <h2 id="password-heading">{hasPassword ? "Change your password" : "Set a password"}</h2>
      {confirmFirst ? <ConfirmFirst reauthHref={reauthHref} /> : null}
      <Form method="post" className="stack" hidden={Boolean(confirmFirst)}>
        <input type="hidden" name="intent" value="password" />
        {hasPassword ? (
          <div className="field">
            <label htmlFor="current">Current Password</label>
            <input id="current" name="current" type="password" autoComplete="current-password" required />
          </div>
        ) : null}
        <div className="field">
          <label htmlFor="password">New Password</label>
          <input id="password" name="password" type="password" autoComplete="new-password" minLength={8} required />
        </div>
        <div className="field">
          <label htmlFor="confirm">Confirm New Password</label>
          <input id="confirm" name="confirm" type="password" autoComplete="new-password" required />
        </div>
        <label className="check-field">
          <input type="checkbox" name="sign_out_others" value="yes" defaultChecked /> Sign out my other sessions
        </label>
        {messageFor(result, "password")}
        <button type="submit" disabled={busy}>
          Save password
        </button>
      </Form>
    </section>
  );
}

export function EmailSection({ email, reauthHref, result, busy }: { email: string; reauthHref: string | null; result?: AreaResult; busy: boolean }) {
  return (
    <section className="auth-card" aria-labelledby="email-heading">
      <h2 id="email-heading">E-mail address</h2>
      <p>
        Your address is <strong>{email}</strong>. A new address takes effect when you open the link we send to it.
      </p>
      {reauthHref ? <ConfirmFirst reauthHref={reauthHref} /> : null}
      <Form method="post" className="stack" hidden={Boolean(reauthHref)}>
        <input type="hidden" name="intent" value="email" />
        <div className="field">
          <label htmlFor="new-email">New e-mail address</label>
          <input id="new-email" name="email" type="email" autoComplete="email" required />
        </div>
        {messageFor(result, "email")}
        <button type="submit" disabled={busy}>
          Change e-mail address
        </button>
      </Form>
    </section>
  );
}

export function RecoveryCodeList({ codes }: { codes: string[] }) {
  return (
    <div className="stack" aria-labelledby="codes-heading">
      <h3 id="codes-heading">Your recovery codes</h3>
      <p>{ourAuthMessages.recoveryCodesShownOnce}</p>
      <ul className="secret" aria-label="Recovery codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </div>
  );
}

export interface TotpState {
  enabled: boolean;
  setup: { qrSvg: string; typedSecret: string } | null;
  recoveryRemaining: number;
}

export function TotpSection({ totp, result, busy }: { totp: TotpState; result?: AreaResult; busy: boolean }) {
  const { enabled, setup } = totp;
  return (
    <section className="auth-card" aria-labelledby="totp-heading">
      <h2 id="totp-heading">Two-factor authentication</h2>
      {messageFor(result, "totp")}
      {result?.area === "totp" && result.codes ? <RecoveryCodeList codes={result.codes} /> : null}
      {setup ? (
        <>
          <Form method="post" className="stack">
            <p>Scan this code with your authenticator app, or type the key below, then enter the 6-digit code it shows.</p>
            <div className="qr" role="img" aria-label="QR code for your authenticator app" dangerouslySetInnerHTML={{ __html: setup.qrSvg }} />
            <p>
              Key:{" "}
              <span className="secret" data-testid="totp-secret">
                {setup.typedSecret}
              </span>
            </p>
            <input type="hidden" name="intent" value="totp-confirm" />
            <div className="field">
              <label htmlFor="code">6-digit code</label>
              <input id="code" name="code" className="code-input" inputMode="numeric" autoComplete="one-time-code" maxLength={9} required />
            </div>
            <button type="submit" disabled={busy}>
              Turn on two-factor
            </button>
          </Form>
          <Form method="post">
            <input type="hidden" name="intent" value="totp-restart" />
            <button type="submit" className="link-button" disabled={busy}>
              Start again with a new key
            </button>
          </Form>
        </>
      ) : enabled ? (
        <>
          <p>Two-factor authentication is on: signing in with a password or link also asks for a code.</p>
          <p>
            Unused recovery codes: <strong data-testid="recovery-remaining">{totp.recoveryRemaining}</strong>
          </p>
          <Form method="post" className="stack">
            <input type="hidden" name="intent" value="codes-new" />
            <button type="submit" className="button secondary" disabled={busy}>
              Make new recovery codes
            </button>
          </Form>
          <Form method="post" className="stack danger-zone">
            <input type="hidden" name="intent" value="totp-off" />
            <div className="field">
              <label htmlFor="proof">Code, recovery code or password</label>
              <input id="proof" name="proof" type="password" autoComplete="off" required />
              <span className="hint">To turn two-factor off, prove it is you with any one of these.</span>
            </div>
            <button type="submit" className="danger" disabled={busy}>
              Turn off two-factor
            </button>
          </Form>
        </>
      ) : (
        <Form method="post" className="stack">
          <p>Add a second step to signing in: a 6-digit code from an authenticator app.</p>
          <input type="hidden" name="intent" value="totp-begin" />
          <button type="submit" disabled={busy}>
            Set up two-factor
          </button>
        </Form>
      )}
    </section>
  );
}

/** A row of the session list, as the service lists it (workers/auth/session-list.ts). */
export type SessionView = SessionRow;

export function SessionsSection({ sessions, result, busy }: { sessions: SessionView[]; result?: AreaResult; busy: boolean }) {
  return (
    <section className="auth-card" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Where you are signed in</h2>
      {messageFor(result, "sessions")}
      <table className="data-table" aria-labelledby="sessions-heading">
        <TableHead headers={["Device", "Site", "Signed in", "Last used"]} actions />
        <tbody>
          {sessions.map((s) => (
            <tr key={s.handle}>
              <td>
                {s.userAgent ?? "Unknown browser"}
                {s.current ? <strong> (this device)</strong> : null}
              </td>
              <td>{s.host}</td>
              <td>{formatDateTime(s.createdAt)}</td>
              <td>{formatDateTime(s.lastUsedAt)}</td>
              <td>
                {s.current ? null : (
                  <Form method="post">
                    <input type="hidden" name="intent" value="session-revoke" />
                    <input type="hidden" name="handle" value={s.handle} />
                    <button
                      type="submit"
                      className="link-button"
                      disabled={busy}
                      aria-label={`Sign out the session on ${s.userAgent ?? "an unknown browser"} last used ${formatDateTime(s.lastUsedAt)}`}
                    >
                      Sign out
                    </button>
                  </Form>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
