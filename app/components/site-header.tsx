import type { Tenant } from "../../tenants/resolve";
import type { Theme } from "../../tenants/theme";

/** The page header in the tenant's theme: its logo and name, and the links that host offers. */
export function SiteHeader({ theme, kind, userName }: { theme: Theme; kind: Tenant["kind"]; userName: string | null }) {
  return (
    <header className="site-header">
      <a className="brand" href="/">
        {theme.logoUrl ? (
          <img src={theme.logoUrl} alt="" width={40} height={40} />
        ) : (
          <span className="brand-mark" aria-hidden="true">
            {theme.name.slice(0, 1)}
          </span>
        )}
        <span className="brand-name">{theme.name}</span>
      </a>
      {kind === "site" ? (
        <nav aria-label="Site" className="site-nav">
          <a href="/events">Events</a>
        </nav>
      ) : null}
      <nav aria-label="Account">
        {userName ? (
          <>
            <a className="user-name" href={kind === "admin" ? "/_admin" : "/manage"}>
              {userName}
            </a>
            <a href="/login/logout">Sign out</a>
          </>
        ) : (
          <a href={kind === "admin" ? "/login?goto=%2F_admin" : "/login"}>Sign in</a>
        )}
      </nav>
    </header>
  );
}
