import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { languageOf } from "../../core/sites/site-links";
import { openDb } from "../../schema/d1";
import { readPageBody } from "../../schema/wire/page-blocks";
import { publishedPage } from "../../workers/services/site-content";
import { PageBlocks } from "../components/page-blocks";

/** A club's own published page at this path (decision 0053); any other path no route claims is a 404 in the site's layout. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { tenant } = context;
  const path = `/${params["*"] ?? ""}`;
  const page = tenant.kind === "site" ? await publishedPage(openDb(context.env.DB), tenant.siteId, path) : null;
  if (!page || tenant.kind !== "site") throw new Response("Not found", { status: 404 });
  const lang = languageOf(tenant.theme.french ?? false, new URL(request.url).searchParams.get("lang"));
  // A page with no French version shows its English one, in English (decision 0053).
  const french = lang === "fr" && page.titleFr ? { title: page.titleFr, body: page.bodyFr || page.body } : null;
  return {
    title: french?.title ?? page.title,
    body: readPageBody(french?.body ?? page.body),
    lang,
    contentLang: french ? ("fr" as const) : ("en" as const),
    siteName: tenant.theme.name,
  };
}

/** A post to a path no route claims is a 404 like a read of it, not a 405 logged as a server error (a club's pages take no posts). */
export function action(_args: ActionFunctionArgs): never {
  throw new Response("Not found", { status: 404 });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.title} · ${data.siteName}` : "Not found" }];

export default function SitePage() {
  const page = useLoaderData<typeof loader>();
  return (
    <main className="page" lang={page.contentLang}>
      <h1>{page.title}</h1>
      <PageBlocks body={page.body} lang={page.lang} />
    </main>
  );
}
