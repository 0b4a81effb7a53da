import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { can, effectiveRoles } from "../../../core/access/policy";
import { openDb } from "../../../schema/d1";
import { siteTarget } from "../../../workers/services/invitation-targets";
import { requireSession } from "../../auth.server";
import { peopleAction, peopleData, requireTargetPage } from "../../admin/people.server";
import { LOGO_INTENT, LOOK_INTENT, saveSiteLogo, saveSiteLook, siteLookData } from "../../admin/site-look.server";
import { siteDomainsAction, siteDomainsData } from "../../admin/site-domains.server";
import { NAV_INTENT, saveSiteNav } from "../../admin/site-nav.server";
import { sitePageList } from "../../../workers/services/site-content";
import { pageQuery, readPostedForm, unknownIntent } from "../../forms/posted-form.server";
import { SavedNotice } from "../../components/form-kit";
import { SiteLookForm } from "../../components/site-look-form";
import { SiteDomainsPanel } from "../../components/site-domains-panel";
import { SiteNavEditor } from "../../components/site-nav-editor";
import { PeoplePanel } from "../../components/people-panel";
import { ErrorPage } from "../../components/error-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Site Settings · ${data.name}` : "Site Settings" }];

/** The site's administrators (the role's home), and System Administrators with the sites flag. */
async function requireSitePage(request: Request, context: LoaderFunctionArgs["context"], siteId: string) {
  const session = requireSession(request, context);
  const target = await siteTarget(openDb(context.env.DB), siteId);
  const page = await requireTargetPage({ env: context.env, session }, target, (principal) =>
    effectiveRoles(principal).some(
      (r) => (r.type === "site_admin" && r.siteId === siteId) || (r.type === "system_admin" && can(principal, "view", { area: "sites", id: siteId })),
    ),
  );
  return { ...page, target: target! };
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { db, mayGrant, target, principal } = await requireSitePage(request, context, params.site ?? "");
  return {
    name: target.name,
    base: `/site/${target.id}/settings`,
    look: await siteLookData(context, db, principal, target.id),
    pages: await sitePageList(db, target.id),
    domains: await siteDomainsData(context, db, principal, target.id, request),
    saved: pageQuery(request).saved,
    people: mayGrant ? await peopleData(db, target, request, context.now) : null,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { db, principal, user, target } = await requireSitePage(request, context, params.site ?? "");
  const posted = await readPostedForm(request);
  if (posted.intent === LOOK_INTENT) return saveSiteLook(context, db, principal, target.id, posted);
  if (posted.intent === LOGO_INTENT) return saveSiteLogo(context, db, principal, target.id, posted);
  if (NAV_INTENT.test(posted.intent)) return saveSiteNav(context, db, principal, target.id, posted);
  const domains = await siteDomainsAction(context, db, principal, user, target.id, posted);
  if (domains) return domains;
  return (await peopleAction(context.env, db, principal, user, target, posted, `/site/${target.id}/settings`, context.now)) ?? unknownIntent(posted);
}

export default function SiteSettings() {
  const data = useLoaderData<typeof loader>();
  return (
    <main className="page">
      <p>
        <Link to="/manage">← Manage</Link>
      </p>
      <h1>{data.name}</h1>
      <SavedNotice message={data.saved} />
      {data.look ? <SiteLookForm look={data.look} /> : null}
      {data.look ? <SiteNavEditor nav={data.look} /> : null}
      <section aria-labelledby="home-heading">
        <h2 id="home-heading">Home page</h2>
        <p>
          Headings, text, images, buttons and the upcoming events and races, in the order you choose.{" "}
          <Link to={`${data.base.replace(/settings$/, "home")}`}>Edit the home page</Link>
        </p>
      </section>
      <section aria-labelledby="pages-heading">
        <h2 id="pages-heading">Pages</h2>
        <p>
          {data.pages.length === 0 ? "No pages yet. " : `${data.pages.length} page${data.pages.length === 1 ? "" : "s"}: `}
          <Link to={`${data.base.replace(/settings$/, "pages")}`}>Manage the pages</Link>
        </p>
      </section>
      <SiteDomainsPanel data={data.domains} base={data.base} />
      {data.people ? <PeoplePanel data={data.people} /> : null}
    </main>
  );
}

export const ErrorBoundary = () => (
  <ErrorPage
    page
    forbidden="This page is for the site's Site Administrators, and System Administrators with the sites flag."
    notFound="There is no such site."
    back={{ to: "/manage", label: "Manage" }}
  />
);
