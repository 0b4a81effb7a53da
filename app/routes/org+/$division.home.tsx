import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { and, eq } from "drizzle-orm";
import { formElements, registrations } from "../../../schema/d1";
import { Division } from "../../../schema/entities/admin-classes";
import { createEntity } from "../../../workers/services/entity-service";
import { addSeason, divisionReport, listSeasons, recordMembers, seasonDates, seasonSchema } from "../../../workers/services/memberships";
import { requireDivisionAccess } from "../../admin/memberships.server";
import { addMemberByHand, saveReminderSettings } from "../../admin/member-edits.server";
import { remindersOf } from "../../../workers/services/membership-reminders";
import { seasonChoices } from "../../../workers/services/member-edits";
import { MembershipFields, PersonFields, ReminderSection } from "../../components/member-forms";
import { errorsOfRefusal } from "../../admin/entity-form.server";
import { pageQuery, pageUrl, parseForm, readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import { SavedNotice, SetupForm, TextField, useReplyFor } from "../../components/form-kit";
import { ErrorPage } from "../../components/error-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Membership Reports · ${data.name}` : "Membership Reports" }];

const MEMBER_CLASS_WORDS: Record<string, string> = { nonmember: "Non-member" };
const classWord = (key: string) => MEMBER_CLASS_WORDS[key] ?? key.replace(/^SDP_/, "").replace(/^./, (c) => c.toUpperCase());

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const access = await requireDivisionAccess(request, context, params.division ?? "");
  const query = pageQuery(request);
  if (!access.division) {
    const { club } = access;
    // One division: its page is the club's membership page.
    if (club!.divisions.length === 1) throw redirect(`/org/${club!.divisions[0]!.id}/home`);
    return { kind: "club" as const, name: club!.name, divisions: club!.divisions, mayCreate: access.mayCreate, saved: query.saved };
  }
  const { db, division, mayEdit } = access;
  const seasonId = new URL(request.url).searchParams.get("season");
  const [seasons, report, reminders, choices] = await Promise.all([
    listSeasons(db, division.id),
    divisionReport(db, division, seasonId, context.now),
    remindersOf(db, division.id),
    seasonChoices(db, division.id),
  ]);
  return {
    kind: "division" as const,
    id: division.id,
    name: division.name,
    mayEdit,
    saved: query.saved,
    reminders: { isReminding: division.isReminding, days: division.reminderDays, sent: reminders },
    programs: division.programsList,
    seasonChoices: choices,
    // The add form's one-time id: sent twice, it lands on the member the first send made.
    submission: crypto.randomUUID(),
    seasons: seasons.map((s) => ({ id: s.id, name: s.name, ...seasonDates(s) })),
    report: { ...report, season: report.season ? { id: report.season.id, name: report.season.name, ...seasonDates(report.season) } : null },
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const access = await requireDivisionAccess(request, context, params.division ?? "");
  const form = request.clone();
  const posted = await readPostedForm(request);
  const here = new URL(request.url).pathname;
  if (posted.intent === "division" && !access.division && access.mayCreate) {
    const entityContext = { env: context.env, tenant: context.tenant, ctx: context.ctx, now: context.now, db: access.db };
    const caller = { principal: access.principal, userId: access.session.user.id, appId: "" };
    const made = await createEntity(entityContext, caller, Division, { name: posted.values.name ?? "", club: access.club!.id });
    if (!made.ok) return refuse(posted, errorsOfRefusal(made.refusal.body, ["name"]), made.refusal.status === 409 ? 409 : 400);
    return redirect(`/org/${made.value.row.uuid as string}/home?saved=created`);
  }
  const { division } = access;
  if (!division || !access.mayEdit) throw new Response("Forbidden", { status: 403 });
  if (posted.intent === "season") {
    const parsed = parseForm(seasonSchema, posted);
    if (!parsed.ok) return parsed.reply;
    const added = await addSeason(access.db, division, parsed.value, context.now);
    return added.ok ? redirect(pageUrl(here, "added")) : refuse(posted, added.errors, 409);
  }
  if (posted.intent === "reminders") return saveReminderSettings(access, context, division, posted, here);
  if (posted.intent === "add") return addMemberByHand(access, context, division, posted, await form.formData());
  if (posted.intent === "record") {
    // The organiser's catch-up: every paid membership on the club's forms, recorded again (safe to repeat).
    const forms = await access.db
      .selectDistinct({ id: registrations.id })
      .from(registrations)
      .innerJoin(formElements, and(eq(formElements.registrationId, registrations.id), eq(formElements.type, "membership")))
      .where(eq(registrations.clubId, division.clubId));
    for (const form of forms) await recordMembers(context.env, access.db, form.id, null, context.now);
    return redirect(pageUrl(here, "saved"));
  }
  return unknownIntent(posted);
}

function Tally({ title, rows, word = (k: string) => k }: { title: string; rows: { key: string; count: number }[]; word?: (k: string) => string }) {
  return (
    <table className="data-table">
      <caption>{title}</caption>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key}>
            <th scope="row">{word(r.key)}</th>
            <td>{r.count}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function MembershipReports() {
  const data = useLoaderData<typeof loader>();
  const season = useReplyFor("season");
  const created = useReplyFor("division");
  const adding = useReplyFor("add");
  const reminding = useReplyFor("reminders");
  if (data.kind === "club")
    return (
      <main className="page">
        <p>
          <Link to="/manage">← Manage</Link>
        </p>
        <h1>Membership Reports · {data.name}</h1>
        {data.divisions.length === 0 ? (
          <p className="empty-state">This club has no division yet. A division keeps the club's members, season by season.</p>
        ) : (
          <ul className="plain-list">
            {data.divisions.map((d) => (
              <li key={d.id}>
                <Link to={`/org/${d.id}/home`}>{d.name}</Link>
              </li>
            ))}
          </ul>
        )}
        {data.mayCreate ? (
          <SetupForm intent="division" label="Create the division" busyLabel="Creating…" errors={created.errors}>
            <TextField name="name" label="Division name" required maxLength={120} defaultValue={created.values?.name} error={created.errors.name} />
          </SetupForm>
        ) : null}
      </main>
    );
  const { report } = data;
  return (
    <main className="page">
      <p>
        <Link to="/manage">← Manage</Link>
      </p>
      <h1>Membership Reports · {data.name}</h1>
      <SavedNotice message={data.saved} />
      {data.seasons.length > 0 ? (
        <Form method="get" className="inline-form">
          <label htmlFor="season">Season</label>{" "}
          <select id="season" name="season" defaultValue={report.season?.id}>
            {data.seasons.map((s) => (
              <option key={s.id} value={s.id}>{`${s.name} (${s.starts} to ${s.ends})`}</option>
            ))}
          </select>{" "}
          <button type="submit" className="secondary small">
            Show
          </button>
        </Form>
      ) : null}
      {report.season ? (
        <>
          <h2>{`Season ${report.season.name}: ${report.total} members`}</h2>
          <p>{`${report.renewed} renewed, ${report.firstTime} new, ${report.lapsed.length} from the season before have not renewed.`}</p>
          <p>
            <a href={`/org/${data.id}/members.csv?season=${report.season.id}`} download>
              Download the members (CSV)
            </a>
          </p>
          <div className="report-tallies">
            <Tally title="By member class" rows={report.byClass} word={classWord} />
            <Tally title="By gender" rows={report.byGender} />
            {report.byProgram.length > 0 ? <Tally title="By program" rows={report.byProgram} /> : null}
          </div>
          <h3>Members</h3>
          {report.members.length === 0 ? (
            <p className="empty-state">No memberships in this season yet. They appear here as registrations with a membership are paid.</p>
          ) : (
            <div className="table-scroll">
              <table className="data-table">
                <thead>
                  <tr>
                    <th scope="col">No.</th>
                    <th scope="col">Name</th>
                    <th scope="col">Birth date</th>
                    <th scope="col">Class</th>
                    <th scope="col">Programs</th>
                    <th scope="col">Renewed</th>
                  </tr>
                </thead>
                <tbody>
                  {report.members.map((m) => (
                    <tr key={m.memberNumber}>
                      <td>{m.memberNumber}</td>
                      <td>
                        <Link to={`/org/${data.id}/members/${m.memberId}`}>{`${m.firstName} ${m.lastName}`}</Link>
                      </td>
                      <td>{m.birthDate ?? ""}</td>
                      <td>{classWord(m.memberClass)}</td>
                      <td>{m.programs.join(", ")}</td>
                      <td>{m.renewed ? "Yes" : "New"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {report.lapsed.length > 0 ? (
            <>
              <h3>Not renewed</h3>
              <ul className="plain-list">
                {report.lapsed.map((l) => (
                  <li key={l.memberNumber}>{`${l.memberNumber} · ${l.name}${l.email ? ` · ${l.email}` : ""}`}</li>
                ))}
              </ul>
            </>
          ) : null}
        </>
      ) : (
        <p className="empty-state">No season is running. Add the season memberships are sold for.</p>
      )}
      <ReminderSection mayEdit={data.mayEdit} settings={data.reminders} reply={reminding} />
      {data.mayEdit && data.seasonChoices.length > 0 ? (
        <>
          <h2>Add a member by hand</h2>
          <SetupForm intent="add" label="Add the member" busyLabel="Adding…" errors={adding.errors}>
            <input type="hidden" name="submission" value={data.submission} />
            <PersonFields values={adding.values} errors={adding.errors} />
            <MembershipFields seasons={data.seasonChoices} programs={data.programs} values={adding.values} errors={adding.errors} />
          </SetupForm>
        </>
      ) : null}
      {data.mayEdit ? (
        <>
          <h2>Seasons</h2>
          <SetupForm intent="season" label="Add the season" busyLabel="Adding…" errors={season.errors}>
            <TextField name="name" label="Season name" required maxLength={60} defaultValue={season.values?.name} error={season.errors.name} />
            <TextField name="starts" label="First day" type="date" required defaultValue={season.values?.starts} error={season.errors.starts} />
            <TextField name="ends" label="Last day" type="date" required defaultValue={season.values?.ends} error={season.errors.ends} />
          </SetupForm>
          <SetupForm intent="record" label="Record memberships from registrations again" busyLabel="Recording…" />
          <p className="hint">
            Memberships are recorded as registrations are paid. Recording again catches up after adding a season; it never adds a member twice.
          </p>
        </>
      ) : null}
    </main>
  );
}

export const ErrorBoundary = () => (
  <ErrorPage
    page
    forbidden="Membership reports are for the club's Division Reports role and Organization Admin, and System Administrators with the divisions flag."
    notFound="There is no such division or club."
    back={{ to: "/manage", label: "Manage" }}
  />
);
