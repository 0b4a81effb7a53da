import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { approvalChangeFor } from "../../../core/registration/status";
import { changeRegistration } from "../../../workers/services/registration-forms";
import { noticeOf, requireRegistrationAccess, statusOf, SUBMITTABLE, withNotice } from "../../registration-admin.server";
import { readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import { StatusPanel } from "../../components/form-builder-status";
import { SavedNotice } from "../../components/form-kit";
import { ErrorPage, REGISTRATION_ADMIN_ERRORS } from "../../components/error-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Form builder · ${data.registration.name}` : "Form builder" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { registration, may } = await requireRegistrationAccess(request, context, params.id, "view");
  const { status, note } = statusOf(registration);
  return {
    registration: { id: registration.id, name: registration.name, clubName: registration.clubName },
    status,
    note,
    may,
    canSubmit: may.edit && SUBMITTABLE.includes(status),
    saved: noticeOf(request),
  };
}

/** The layout's own action: submitting the form for approval (posted here, without ?index). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { registration, builder } = await requireRegistrationAccess(request, context, params.id, "edit");
  const posted = await readPostedForm(request);
  if (posted.intent !== "submit") return unknownIntent(posted);
  if (!SUBMITTABLE.includes(statusOf(registration).status)) return refuse(posted, { form: "This form is already waiting for approval or live." }, 409);
  const note = (posted.values.note ?? "").trim().slice(0, 2000);
  const result = await changeRegistration(builder, registration, { ...approvalChangeFor("submit", note) });
  return result.ok ? redirect(withNotice(`/registration/${registration.id}/admin`, "submitted")) : refuse(posted, result.errors, 409);
}

export default function RegistrationAdminLayout() {
  const data = useLoaderData<typeof loader>();
  const base = `/registration/${data.registration.id}/admin`;
  return (
    <main className="page registration-admin">
      <p className="race-meta">
        <Link to="/club/registrations">← Registration forms</Link> · {data.registration.clubName}
      </p>
      <h1>{data.registration.name}</h1>
      <StatusPanel action={base} status={data.status} note={data.note} canSubmit={data.canSubmit} />
      <nav aria-label="Registration form administration" className="admin-tabs">
        <ul>
          <li>
            <NavLink to={base} end>
              Fields
            </NavLink>
          </li>
          {data.may.edit ? (
            <li>
              <NavLink to={`${base}/settings`}>Settings</NavLink>
            </li>
          ) : null}
          {data.may.edit ? (
            <li>
              <NavLink to={`${base}/waitlist`}>Waitlist</NavLink>
            </li>
          ) : null}
          {data.may.finance ? (
            <li>
              <NavLink to={`${base}/payments`}>Payments</NavLink>
            </li>
          ) : null}
          {data.may.people ? (
            <li>
              <NavLink to={`${base}/people`}>People</NavLink>
            </li>
          ) : null}
          {data.may.reports ? (
            <li>
              <Link to={`/registration/${data.registration.id}/reports`}>Reports</Link>
            </li>
          ) : null}
          <li>
            <a href={`/register/${data.registration.id}?preview=1`}>Preview as a registrant</a>
          </li>
        </ul>
      </nav>
      <SavedNotice message={data.saved} />
      <Outlet />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage page {...REGISTRATION_ADMIN_ERRORS} />;
}
