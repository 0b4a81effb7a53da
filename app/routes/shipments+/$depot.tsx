import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { can } from "../../../core/access/policy";
import { openDb } from "../../../schema/d1";
import { depotTarget } from "../../../workers/services/invitation-targets";
import { requireSession } from "../../auth.server";
import { peopleAction, peopleData, requireTargetPage } from "../../admin/people.server";
import { pageQuery, readPostedForm, unknownIntent } from "../../forms/posted-form.server";
import { SavedNotice } from "../../components/form-kit";
import { PeoplePanel } from "../../components/people-panel";
import { ErrorPage } from "../../components/error-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Shipments · ${data.name}` : "Shipments" }];

/** The depot's staff (Shipping Depot Admin and User) and System Administrators with the depots flag. */
async function requireDepotPage(request: Request, context: LoaderFunctionArgs["context"], depotId: string) {
  const session = requireSession(request, context);
  const target = await depotTarget(openDb(context.env.DB), depotId);
  const page = await requireTargetPage({ env: context.env, session }, target, (principal) => can(principal, "view", { area: "depots", id: depotId, depotId }));
  return { ...page, target: target! };
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { db, mayGrant, target } = await requireDepotPage(request, context, params.depot ?? "");
  return { name: target.name, saved: pageQuery(request).saved, people: mayGrant ? await peopleData(db, target, request, context.now) : null };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { db, principal, user, target } = await requireDepotPage(request, context, params.depot ?? "");
  const posted = await readPostedForm(request);
  return (await peopleAction(context.env, db, principal, user, target, posted, `/shipments/${target.id}`, context.now)) ?? unknownIntent(posted);
}

export default function Shipments() {
  const data = useLoaderData<typeof loader>();
  return (
    <main className="page">
      <p>
        <Link to="/manage">← Manage</Link>
      </p>
      <h1>Shipments · {data.name}</h1>
      <SavedNotice message={data.saved} />
      <p className="hint">Stock, packing lists and shipments of this depot are kept here once shipping arrives; its staff are given below.</p>
      {data.people ? <PeoplePanel data={data.people} /> : null}
    </main>
  );
}

export const ErrorBoundary = () => (
  <ErrorPage
    page
    forbidden="This page is for the depot's Shipping Depot Admins and Users, and System Administrators with the depots flag."
    notFound="There is no such shipping depot."
    back={{ to: "/manage", label: "Manage" }}
  />
);
