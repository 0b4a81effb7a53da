import { Form } from "@remix-run/react";
import type { ReactNode } from "react";

// Kept where the sign-in screens import it; it lives on its own so pages without Remix (the serverbox keypad) can use it.
export { FormMessage } from "./form-message";

/** The narrow centred panel every sign-in screen uses. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="page auth-page">
      <section className="auth-card" aria-labelledby="auth-title">
        <h1 id="auth-title">{title}</h1>
        {children}
      </section>
    </main>
  );
}

/** The one-field form that mails a sign-in or reset link (intent "send"); works before hydration. */
export function SendLinkForm({ action, email, busy, label }: { action?: string; email: string; busy: boolean; label: string }) {
  return (
    <Form method="post" action={action} className="stack">
      <input type="hidden" name="intent" value="send" />
      <div className="field">
        <label htmlFor="email">Email address</label>
        <input id="email" name="email" type="email" defaultValue={email} autoComplete="username" required />
      </div>
      <button type="submit" disabled={busy}>
        {busy ? "Sending…" : label}
      </button>
    </Form>
  );
}
