import type { Tenant } from "../../tenants/resolve";
import type { SiteChrome } from "../../tenants/site-chrome";
import type { Theme } from "../../tenants/theme";

/** The site's own menu (or Events), and the switch to its other language. */
function SiteMenu({ chrome }: { chrome: SiteChrome }) {
  return (
    <nav aria-label="Site" className="site-nav">
      {chrome.menu.map((item, i) => (
        <a key={i} href={item.href} aria-current={item.current ? "page" : undefined}>
          {item.label}
        </a>
      ))}
      {chrome.switchTo ? (
        <a href={chrome.switchTo.href} lang={chrome.switchTo.lang} hrefLang={chrome.switchTo.lang}>
          {chrome.switchTo.label}
        </a>
      ) : null}
    </nav>
  );
}

/** The page header in the tenant's theme: its logo and name, and the links that host offers. */
export function SiteHeader({ theme, kind, userName, chrome }: { theme: Theme; kind: Tenant["kind"]; userName: string | null; chrome?: SiteChrome }) {
  return (
    <header className="site-header">
      <a className="brand" href={chrome?.home ?? "/"}>
        {theme.logoUrl ? (
          <img src={theme.logoUrl} alt="" width={40} height={40} />
        ) : (
          <span className="brand-mark" aria-hidden="true">
            {theme.name.slice(0, 1)}
          </span>
        )}
        <span className="brand-name">{theme.name}</span>
      </a>
      {kind === "site" && chrome ? <SiteMenu chrome={chrome} /> : null}
      <nav aria-label="Account">
        {userName ? (
          <>
            <a className="user-name" href={kind === "admin" ? "/_admin" : "/manage"}>
              {userName}
            </a>
            <a href="/login/logout">Sign out</a>
          </>
        ) : (
          <a href={kind === "admin" ? "/login?goto=%2F_admin" : "/login"}>{chrome?.lang === "fr" ? "Se connecter" : "Sign in"}</a>
        )}
      </nav>
    </header>
  );
}
