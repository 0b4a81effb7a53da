import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { openDb } from "../../../schema/d1";
import { raceTarget } from "../../../workers/services/invitation-targets";
import { requireRaceAccess } from "../../race-admin.server";
import { peopleAction, peopleData, requireGranter } from "../../admin/people.server";
import { pageQuery, readPostedForm, unknownIntent } from "../../forms/posted-form.server";
import { SavedNotice } from "../../components/form-kit";
import { PeoplePanel } from "../../components/people-panel";
import { ErrorPage, RACE_SETUP_ERRORS } from "../../components/error-page";

/** Giving and taking back the race's roles is administration (Race Administrator, All Races, Organization Admin). */
async function requireRoleGranter(request: Request, context: LoaderFunctionArgs["context"], raceId: string | undefined) {
  const access = await requireRaceAccess(request, context, raceId, "view");
  const target = raceTarget(access.race);
  requireGranter(access.principal, target);
  return { ...access, target };
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { target } = await requireRoleGranter(request, context, params.id);
  return { saved: pageQuery(request).saved, people: await peopleData(openDb(context.env.DB), target, request, Date.now()) };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { principal, target } = await requireRoleGranter(request, context, params.id);
  const session = context.session!;
  const posted = await readPostedForm(request);
  const base = `/race/${target.id}/admin/people`;
  const user = { id: session.user.id, name: session.user.name };
  return (await peopleAction(context.env, openDb(context.env.DB), principal, user, target, posted, base, Date.now())) ?? unknownIntent(posted);
}

export default function RacePeople() {
  const { saved, people } = useLoaderData<typeof loader>();
  return (
    <>
      <SavedNotice message={saved} />
      <PeoplePanel data={people} />
    </>
  );
}

export const ErrorBoundary = () => (
  <ErrorPage
    {...RACE_SETUP_ERRORS}
    forbidden="Giving and taking back a race's roles needs the Race Administrator role for this race, or All Races or Organization Admin for its club."
  />
);
