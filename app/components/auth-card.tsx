import type { ReactNode } from "react";

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

/** An error or notice announced to screen readers as it appears. */
export function FormMessage({ error, notice }: { error?: string | null; notice?: string | null }) {
  if (error) return <p className="form-error" role="alert">{error}</p>;
  if (notice) return <p className="form-notice" role="status">{notice}</p>;
  return null;
}
