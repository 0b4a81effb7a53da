import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import type { InvitationTarget } from "../../../workers/services/invitation-targets";
import { peopleAction, peopleData } from "../../admin/people.server";
import { requireRegistrationAccess } from "../../registration-admin.server";
import { readPostedForm, unknownIntent } from "../../forms/posted-form.server";
import { PeoplePanel } from "../../components/people-panel";
import { ErrorPage, REGISTRATION_ADMIN_ERRORS } from "../../components/error-page";

/** Giving the form's roles is administering the form: Registration Form Admin, All Registrations, Organization Admin. */
async function requireFormGranter(request: Request, context: LoaderFunctionArgs["context"], id: string | undefined) {
  const access = await requireRegistrationAccess(request, context, id, "administer");
  const { registration } = access;
  const target: InvitationTarget = {
    level: "registration",
    id: registration.id,
    name: registration.name,
    clubId: registration.clubId,
    siteId: registration.siteId,
  };
  return { ...access, target };
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { builder, target } = await requireFormGranter(request, context, params.id);
  return { people: await peopleData(builder.db, target, request, context.now) };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { builder, principal, target } = await requireFormGranter(request, context, params.id);
  const session = context.session!;
  const posted = await readPostedForm(request);
  const user = { id: session.user.id, name: session.user.name };
  return (
    (await peopleAction(context.env, builder.db, principal, user, target, posted, `/registration/${target.id}/admin/people`, context.now)) ??
    unknownIntent(posted)
  );
}

export default function RegistrationPeople() {
  return <PeoplePanel data={useLoaderData<typeof loader>().people} />;
}

export const ErrorBoundary = () => (
  <ErrorPage
    {...REGISTRATION_ADMIN_ERRORS}
    forbidden="Giving and taking back a form's roles needs the Registration Form Admin role for this form, or All Registrations or Organization Admin for its club."
  />
);
