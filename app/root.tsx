import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useEffect, type CSSProperties, type ReactNode } from "react";
import { themeStyleVariables, type Theme } from "../tenants/theme";
import { ErrorPage } from "./components/error-page";
import { SiteHeader } from "./components/site-header";
import { useNonce } from "./nonce";
import stylesheet from "./styles/app.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.ico" },
];

export async function loader({ context }: LoaderFunctionArgs) {
  const { tenant, session } = context;
  return { theme: tenant.theme, tenantKind: tenant.kind, userName: session?.user.name ?? null };
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
    <html lang="en" style={theme ? (themeStyleVariables(theme) as CSSProperties) : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {theme ? <meta name="theme-color" content={theme.colours.primary} /> : null}
        <Meta />
        <Links />
      </head>
      <body>
        {data ? <SiteHeader theme={data.theme} kind={data.tenantKind} userName={data.userName} /> : null}
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { theme, tenantKind } = useLoaderData<typeof loader>();
  return (
    <>
      <Outlet />
      <SiteFooter theme={theme} showPoweredBy={tenantKind === "site"} />
    </>
  );
}

function SiteFooter({ theme, showPoweredBy }: { theme: Theme; showPoweredBy: boolean }) {
  return (
    <footer className="site-footer">
      <p>
        © {theme.name}
        {showPoweredBy ? <span> · Powered by Startline</span> : null}
      </p>
    </footer>
  );
}

export const ErrorBoundary = () => <ErrorPage page />;
