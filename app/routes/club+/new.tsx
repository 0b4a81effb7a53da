import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { COUNTRIES } from "../../../core/forms/countries";
import { sportsSorted } from "../../../core/timing/sports";
import { openDb } from "../../../schema/d1";
import { createClub, newClubSchema } from "../../../workers/services/clubs";
import { requireSession } from "../../auth.server";
import { parseForm, readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import { SelectField, SetupForm, TextField, useReplyFor } from "../../components/form-kit";
import { ErrorPage } from "../../components/error-page";

export const meta: MetaFunction = () => [{ title: "Start a club" }];

/** Any signed-in user may start a club, on the main host (a club's own site belongs to that club). */
function requireFounder(request: Request, context: LoaderFunctionArgs["context"]) {
  if (context.tenant.kind !== "main") throw new Response("Not found", { status: 404 });
  return requireSession(request, context);
}

export function loader({ request, context }: LoaderFunctionArgs) {
  requireFounder(request, context);
  return {
    mainHost: context.env.MAIN_HOST,
    submission: crypto.randomUUID(),
    sports: sportsSorted().map((s) => s.name),
    countries: COUNTRIES.map((c) => ({ value: c.alpha2, label: c.name })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const session = requireFounder(request, context);
  const posted = await readPostedForm(request);
  if (posted.intent !== "create") return unknownIntent(posted);
  const parsed = parseForm(newClubSchema, posted);
  if (!parsed.ok) return parsed.reply;
  const created = await createClub(openDb(context.env.DB), { userId: session.user.id }, parsed.value, context.env.MAIN_HOST, Date.now());
  return created.ok ? redirect(`/club/${created.clubId}/overview`) : refuse(posted, created.errors, created.errors.form ? 409 : 400);
}

export default function NewClub() {
  const { mainHost, submission, sports, countries } = useLoaderData<typeof loader>();
  const { errors, values } = useReplyFor("create");
  return (
    <main className="page" style={{ maxWidth: "40rem" }}>
      <p>
        <Link to="/manage">← Manage</Link>
      </p>
      <h1>Start a club</h1>
      <p>You become the club's Organization Admin, and it gets its own site at once. Forms and races come next.</p>
      <SetupForm intent="create" label="Start the club" busyLabel="Starting…" errors={errors}>
        <input type="hidden" name="submission" value={values?.submission ?? submission} />
        <TextField name="name" label="Club name" required maxLength={120} defaultValue={values?.name} error={errors.name} />
        <SelectField
          name="sport"
          label="Sport"
          defaultValue={values?.sport ?? ""}
          error={errors.sport}
          choices={[{ value: "", label: "Choose…" }, ...sports.map((s) => ({ value: s, label: s }))]}
        />
        <SelectField name="country" label="Country" defaultValue={values?.country ?? "CA"} error={errors.country} choices={countries} />
        <TextField
          name="site_label"
          label="Site address"
          hint={`Your site will be at address.${mainHost}. Leave empty to make it from the club's name.`}
          maxLength={40}
          defaultValue={values?.site_label}
          error={errors.site_label}
        />
      </SetupForm>
    </main>
  );
}

export const ErrorBoundary = () => <ErrorPage page back={{ to: "/manage", label: "Manage" }} />;
