import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useEffect, type CSSProperties, type ReactNode } from "react";
import type { Theme } from "../tenants/theme";
import { themeStyleVariables } from "../tenants/theme-style";
import { ErrorPage } from "./components/error-page";
import { languageOf } from "../core/sites/site-links";
import { siteChrome, type SiteChrome } from "../tenants/site-chrome";
import { SiteHeader } from "./components/site-header";
import { useNonce } from "./nonce";
import stylesheet from "./styles/app.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.ico" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant, session } = context;
  const url = new URL(request.url);
  const lang = languageOf(tenant.theme.french ?? false, url.searchParams.get("lang"));
  return { theme: tenant.theme, tenantKind: tenant.kind, userName: session?.user.name ?? null, lang, chrome: siteChrome(tenant.theme, lang, url.pathname) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.theme.name ?? "Startline" }];

export function Layout({ children }: { children: ReactNode }) {
  // The error boundary renders inside this layout too, where loader data may be missing.
  const data = useRouteLoaderData<typeof loader>("root");
  const theme = data?.theme;
  const nonce = useNonce();
  useEffect(() => {
    // Tests and scripts wait for this to know React has taken over the server-rendered page.
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang={data?.lang ?? "en"} style={theme ? (themeStyleVariables(theme) as CSSProperties) : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {theme ? <meta name="theme-color" content={theme.colours.primary} /> : null}
        <Meta />
        <Links />
      </head>
      <body>
        {data ? <SiteHeader theme={data.theme} kind={data.tenantKind} userName={data.userName} chrome={data.chrome} /> : null}
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { theme, tenantKind, chrome } = useLoaderData<typeof loader>();
  return (
    <>
      <Outlet />
      <SiteFooter theme={theme} showPoweredBy={tenantKind === "site"} chrome={chrome} />
    </>
  );
}

function SiteFooter({ theme, showPoweredBy, chrome }: { theme: Theme; showPoweredBy: boolean; chrome: SiteChrome }) {
  return (
    <footer className="site-footer">
      {chrome.footerText ? <p>{chrome.footerText}</p> : null}
      {chrome.footerLinks.length > 0 ? (
        <nav aria-label={chrome.lang === "fr" ? "Pied de page" : "Footer"}>
          {chrome.footerLinks.map((link, i) => (
            <a key={i} href={link.href}>
              {link.label}
            </a>
          ))}
        </nav>
      ) : null}
      <p>
        © {theme.name}
        {showPoweredBy ? <span> · Powered by Startline</span> : null}
      </p>
    </footer>
  );
}

export const ErrorBoundary = () => <ErrorPage page />;
