import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { sportsSorted } from "../../../core/timing/sports";
import { openDb } from "../../../schema/d1";
import { principalOf } from "../../../workers/services/race-access";
import { createRace, creatableRaceClubs, timeZoneNames } from "../../../workers/services/race-setup";
import { requireSession } from "../../auth.server";
import { newRaceFormSchema } from "../../race-setup.server";
import { parseTimedForm } from "../../race-clock.server";
import { readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import { ClubField, SelectField, SetupForm, TextField, useReplyFor } from "../../components/form-kit";
import { ErrorPage, RACE_SETUP_ERRORS } from "../../components/error-page";

export const meta: MetaFunction = () => [{ title: "Create a race" }];

/** A signed-in user who may create races in at least one club here (Organization Admin, All Races, or an admin with the races flag). */
async function requireRaceCreator(request: Request, context: LoaderFunctionArgs["context"]) {
  const session = requireSession(request, context);
  const db = openDb(context.env.DB);
  const principal = (await principalOf(db, session))!;
  const clubs = await creatableRaceClubs(db, principal, context.tenant);
  if (clubs.length === 0) throw new Response("Forbidden", { status: 403 });
  return { db, principal, clubs };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { clubs } = await requireRaceCreator(request, context);
  return {
    clubs,
    sports: sportsSorted()
      .filter((s) => s.isRace)
      .map((s) => s.name),
    timeZones: timeZoneNames(),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { db, principal } = await requireRaceCreator(request, context);
  const posted = await readPostedForm(request);
  if (posted.intent !== "create") return unknownIntent(posted);
  const parsed = parseTimedForm(newRaceFormSchema, posted);
  if (!parsed.ok) return parsed.reply;
  const { club, name, sport, startTime, timezone } = parsed.value;
  const result = await createRace({ ...context, db }, principal, { club, name, sport, startTime, timezone });
  return result.ok ? redirect(`/race/${result.id}/admin`) : refuse(posted, result.errors);
}

export default function NewRace() {
  const { clubs, sports, timeZones } = useLoaderData<typeof loader>();
  const { errors, values } = useReplyFor("create");
  const club = clubs.find((c) => c.id === values?.club) ?? clubs[0];
  return (
    <main className="page" style={{ maxWidth: "40rem" }}>
      <p>
        <Link to="/manage">← Manage</Link>
      </p>
      <h1>Create a race</h1>
      <p>The race starts private: set it up, then make it public from its Setup page.</p>
      <SetupForm intent="create" label="Create race" busyLabel="Creating…" errors={errors}>
        <ClubField clubs={clubs} club={club} error={errors.club} />
        <TextField name="name" label="Name" required maxLength={200} defaultValue={values?.name} error={errors.name} />
        <SelectField
          name="sport"
          label="Sport"
          defaultValue={values?.sport ?? ""}
          error={errors.sport}
          choices={[{ value: "", label: "Not set" }, ...sports.map((s) => ({ value: s, label: s }))]}
        />
        <TextField
          name="start"
          type="datetime-local"
          label="Start"
          hint="Date and time of the start, in the time zone below."
          required
          defaultValue={values?.start}
          error={errors.start}
        />
        <SelectField
          name="timezone"
          label="Time zone"
          hint="Defaults to the club's time zone."
          defaultValue={values?.timezone ?? club?.timezone}
          error={errors.timezone}
          choices={timeZones.map((z) => ({ value: z, label: z.replaceAll("_", " ") }))}
        />
      </SetupForm>
    </main>
  );
}

export function ErrorBoundary() {
  return (
    <ErrorPage
      page
      {...RACE_SETUP_ERRORS}
      forbidden="Creating a race needs the Organization Admin or All Races role of a club, or a System Administrator with the races area."
    />
  );
}
