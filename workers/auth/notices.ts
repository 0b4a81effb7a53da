import type { Db } from "../../schema/d1";
import type { Tenant } from "../../tenants/resolve";
import { sendMail } from "../mail/mailer";

/**
 * The security notices an account owner is sent when something about their sign-in changes, so a change
 * they did not make is noticed at once (ASVS 2.2.3 / 3.7). Not shown in the spec; our wording
 * (docs/security.md). Each notice names what changed and when, never a secret or a link that signs in.
 */
export type SecurityNotice =
  | { kind: "password-changed" }
  | { kind: "password-reset" }
  | { kind: "totp-on" }
  | { kind: "totp-off" }
  | { kind: "recovery-codes-new" }
  | { kind: "recovery-code-used"; remaining: number }
  | { kind: "email-changed"; newEmail: string }
  | { kind: "passkey-added" }
  | { kind: "passkey-removed" }
  | { kind: "new-device"; device: string };

const what: { [K in SecurityNotice["kind"]]: (notice: Extract<SecurityNotice, { kind: K }>) => { subject: string; line: string } } = {
  "password-changed": () => ({ subject: "Your password was changed", line: "The password of your account was changed." }),
  "password-reset": () => ({ subject: "Your password was reset", line: "The password of your account was reset with an e-mailed link." }),
  "totp-on": () => ({ subject: "Two-factor authentication is on", line: "Two-factor authentication was turned on for your account." }),
  "totp-off": () => ({ subject: "Two-factor authentication is off", line: "Two-factor authentication was turned off for your account." }),
  "recovery-codes-new": () => ({ subject: "New recovery codes", line: "New recovery codes were made for your account; the old ones no longer work." }),
  "recovery-code-used": (n) => ({
    subject: "A recovery code was used",
    line: `A recovery code was used to sign in to your account. ${n.remaining} unused codes remain.`,
  }),
  "email-changed": (n) => ({ subject: "Your e-mail address was changed", line: `The e-mail address of your account was changed to ${n.newEmail}.` }),
  "passkey-added": () => ({ subject: "A passkey was added", line: "A passkey was added to your account." }),
  "passkey-removed": () => ({ subject: "A passkey was removed", line: "A passkey was removed from your account." }),
  "new-device": (n) => ({ subject: "New sign-in to your account", line: `Your account was signed in to from a device we had not seen before (${n.device}).` }),
};

export interface NoticeDeps {
  env: Env;
  db: Db;
  tenant: Tenant;
  now: number;
}

/** Sends one notice to `to` (for an e-mail change, the old address too is told by its caller). */
export async function sendSecurityNotice(deps: NoticeDeps, to: { email: string; name: string }, notice: SecurityNotice): Promise<void> {
  const { subject, line } = (what[notice.kind] as (n: SecurityNotice) => { subject: string; line: string })(notice);
  const site = deps.tenant.theme.name;
  const when = new Date(deps.now).toUTCString();
  const text = `Hello ${to.name},\n\n${line}\n\nWhen: ${when}\n\nIf this was you, there is nothing to do. If it was not, reset your password at once and sign out your other sessions on the security page of your account.\n\n${site}\n`;
  await sendMail(deps.env, deps.db, { to: to.email, subject: `${site}: ${subject}`, text });
}
