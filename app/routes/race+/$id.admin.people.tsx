import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { roleDefinition } from "../../../core/access/roles";
import { openDb } from "../../../schema/d1";
import {
  inviteSchema,
  inviteToRace,
  mayGrantRaceRoles,
  RACE_INVITABLE_ROLES,
  racePeople,
  revokeRaceRole,
  withdrawInvitation,
} from "../../../workers/services/invitations";
import { requireRaceAccess } from "../../race-admin.server";
import { pageQuery, pageUrl, parseForm, readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import { SavedNotice, SelectField, SetupForm, TextField, useReplyFor } from "../../components/form-kit";
import { SetupTable } from "../../components/setup-table";
import { ErrorPage, RACE_SETUP_ERRORS } from "../../components/error-page";

/** Giving and taking back the race's roles is administration (Race Administrator, All Races, Organization Admin). */
async function requireRoleGranter(request: Request, context: LoaderFunctionArgs["context"], raceId: string | undefined) {
  const access = await requireRaceAccess(request, context, raceId, "view");
  if (!mayGrantRaceRoles(access.principal, access.race)) throw new Response("Forbidden", { status: 403 });
  return access;
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { race } = await requireRoleGranter(request, context, params.id);
  const people = await racePeople(openDb(context.env.DB), race.id, Date.now());
  return {
    raceId: race.id,
    saved: pageQuery(request).saved,
    ...people,
    roles: RACE_INVITABLE_ROLES.map((type) => ({ value: type, label: roleDefinition(type).label })),
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { race } = await requireRoleGranter(request, context, params.id);
  const session = context.session!;
  const db = openDb(context.env.DB);
  const posted = await readPostedForm(request);
  const base = `/race/${race.id}/admin/people`;
  if (posted.intent === "invite") {
    const parsed = parseForm(inviteSchema, posted);
    if (!parsed.ok) return parsed.reply;
    const sent = await inviteToRace(context.env, db, { userId: session.user.id, name: session.user.name }, race, parsed.value, Date.now());
    return sent.ok ? redirect(pageUrl(base, "invited")) : refuse(posted, sent.errors);
  }
  if (posted.intent === "withdraw" && posted.target) {
    await withdrawInvitation(db, race.id, posted.target, Date.now());
    return redirect(pageUrl(base, "withdrawn"));
  }
  if (posted.intent === "revoke" && posted.target) {
    await revokeRaceRole(db, race.id, posted.target);
    return redirect(pageUrl(base, "revoked"));
  }
  return unknownIntent(posted);
}

function RowButton({ intent, target, label }: { intent: string; target: string; label: string }) {
  return (
    <Form method="post" className="inline-form">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="target" value={target} />
      <button type="submit" className="secondary">
        {label}
      </button>
    </Form>
  );
}

export default function RacePeople() {
  const { saved, holders, pending, roles } = useLoaderData<typeof loader>();
  const { errors, values } = useReplyFor("invite");
  return (
    <section aria-labelledby="people-heading">
      <h2 id="people-heading">People</h2>
      <SavedNotice message={saved} />
      <p className="hint">Who works on this race, and in which role. An invited person accepts with the account of the address you invite.</p>
      <SetupTable
        items={holders}
        keyOf={(h) => h.roleId}
        empty="No one holds a role on this race yet."
        columns={[
          {
            header: "Person",
            cell: (h) => (
              <>
                {h.name} <span className="hint">{h.email}</span>
              </>
            ),
          },
          { header: "Role", cell: (h) => h.label },
        ]}
        actions={(h) => <RowButton intent="revoke" target={h.roleId} label="Take back" />}
      />
      {pending.length > 0 ? (
        <>
          <h3>Invited</h3>
          <ul className="plain-list">
            {pending.map((p) => (
              <li key={p.id}>
                {p.email} as {p.label} <span className="hint">(open until {new Date(p.expiresAt).toISOString().slice(0, 10)})</span>{" "}
                <RowButton intent="withdraw" target={p.id} label="Withdraw" />
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h3>Invite someone</h3>
      <SetupForm intent="invite" label="Send the invitation" busyLabel="Sending…" errors={errors}>
        <TextField name="email" label="E-mail address" required maxLength={254} defaultValue={values?.email} error={errors.email} />
        <SelectField name="role" label="Role" defaultValue={values?.role ?? "race_timer"} error={errors.role} choices={roles} />
      </SetupForm>
    </section>
  );
}

export const ErrorBoundary = () => (
  <ErrorPage
    {...RACE_SETUP_ERRORS}
    forbidden="Giving and taking back a race's roles needs the Race Administrator role for this race, or All Races or Organization Admin for its club."
  />
);
