import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import * as z from "zod";
import { effectiveRoles } from "../../../core/access/policy";
import { createRegistration, creatableRegistrationClubs, listRegistrations } from "../../../workers/services/registration-forms";
import { requirePrincipal, statusOf, wallClockText, withNotice, zonesOfForms } from "../../registration-admin.server";
import { parseForm, readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import { ClubField, SetupForm, TextField, useReplyFor } from "../../components/form-kit";
import { ErrorPage, REGISTRATION_ADMIN_ERRORS } from "../../components/error-page";

export const meta: MetaFunction = () => [{ title: "Registration Forms" }];

/** Roles that work with registration forms (platform.md section 6); anyone else is told which they need. */
const FORM_ROLES = new Set([
  "system_admin",
  "site_admin",
  "org_admin",
  "all_registrations",
  "registration_admin",
  "registration_finance",
  "registration_readonly",
  "report_edit_view",
  "report_view",
]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { db, principal } = await requirePrincipal(request, context);
  const [forms, clubs] = await Promise.all([listRegistrations(db, principal, context.tenant), creatableRegistrationClubs(db, principal, context.tenant)]);
  if (forms.length === 0 && clubs.length === 0 && !effectiveRoles(principal).some((r) => FORM_ROLES.has(r.type)))
    throw new Response("Forbidden", { status: 403 });
  const zones = await zonesOfForms(
    db,
    forms.map((f) => f.id),
  );
  return {
    clubs: clubs.map((c) => ({ id: c.id, name: c.name })),
    forms: forms.map((f) => {
      const zone = zones.get(f.id) ?? "UTC";
      return {
        id: f.id,
        name: f.name,
        clubName: f.clubName,
        status: statusOf({ isApproved: f.isApproved, isPending: f.isPending, approvalStatus: f.approvalStatus }).status,
        opens: wallClockText(f.openTime, zone),
        closes: wallClockText(f.closeTime, zone),
        zone,
      };
    }),
  };
}

const createSchema = z.object({
  club: z.string().default("").pipe(z.string().min(1, "Choose a club")),
  name: z
    .string()
    .default("")
    .transform((v) => v.trim())
    .pipe(z.string().min(1, "Give the form a name").max(200, "At most 200 characters")),
});

export async function action({ request, context }: ActionFunctionArgs) {
  const { principal, builder } = await requirePrincipal(request, context);
  const posted = await readPostedForm(request);
  if (posted.intent !== "create") return unknownIntent(posted);
  const parsed = parseForm(createSchema, posted);
  if (!parsed.ok) return parsed.reply;
  const result = await createRegistration(builder, principal, parsed.value);
  return result.ok ? redirect(withNotice(`/registration/${result.value.id}/admin`, "created")) : refuse(posted, result.errors, 400);
}

export default function ClubRegistrations() {
  const { forms, clubs } = useLoaderData<typeof loader>();
  return (
    <main className="page">
      <p>
        <Link to="/manage">← Manage</Link>
      </p>
      <h1>Registration forms</h1>
      {forms.length === 0 ? (
        <p className="empty-state">No registration forms yet.{clubs.length > 0 ? " Create the first one below." : ""}</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Form</th>
                <th scope="col">Club</th>
                <th scope="col">Status</th>
                <th scope="col">Opens</th>
                <th scope="col">Closes</th>
              </tr>
            </thead>
            <tbody>
              {forms.map((f) => (
                <tr key={f.id}>
                  <th scope="row">
                    <Link to={`/registration/${f.id}/admin`}>{f.name}</Link>
                  </th>
                  <td>{f.clubName}</td>
                  <td>{f.status}</td>
                  <td>{f.opens ? <time title={f.zone}>{f.opens}</time> : <span className="empty-state">When approved</span>}</td>
                  <td>{f.closes ? <time title={f.zone}>{f.closes}</time> : <span className="empty-state">Never</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {clubs.length > 0 ? <NewFormForm clubs={clubs} /> : null}
    </main>
  );
}

function NewFormForm({ clubs }: { clubs: { id: string; name: string }[] }) {
  const { errors, values } = useReplyFor("create");
  const club = clubs.find((c) => c.id === values?.club) ?? clubs[0];
  return (
    <section aria-labelledby="new-form-heading">
      <h2 id="new-form-heading">New registration form</h2>
      <p className="hint">A new form starts in Test Mode: set it up, try it, then submit it for approval.</p>
      <SetupForm intent="create" label="Create form" busyLabel="Creating…" errors={errors}>
        <ClubField clubs={clubs} club={club} error={errors.club} />
        <TextField name="name" label="Name" required maxLength={200} defaultValue={values?.name} error={errors.name} />
      </SetupForm>
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <ErrorPage
      page
      {...REGISTRATION_ADMIN_ERRORS}
      forbidden="Registration forms are managed by Organization Admins and All Registrations users of a club, Site Administrators, the form's own Registration Form roles, and System Administrators with the registrations flag."
      back={{ to: "/manage", label: "Manage" }}
    />
  );
}
