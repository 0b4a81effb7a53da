import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import * as z from "zod";
import { ACTIVITY_SUBJECTS } from "../../../schema/d1";
import { Activity } from "../../../schema/entities/admin-classes";
import { createEntity } from "../../../workers/services/entity-service";
import { activitiesOfClub, MAX_TAGS, setTags, subjectsOfClub, tagsOf } from "../../../workers/services/activity-tags";
import { requireClubAdmin } from "../../admin/club-admin.server";
import { FormMessage } from "../../components/auth-card";
import { SavedNotice, TextField } from "../../components/form-kit";
import { ErrorPage } from "../../components/error-page";
import { ClubPage } from "../../components/club-page";

/** A club's activities (decision 0052): its catalogue, and which forms, races and event pages each tags. */
export const meta: MetaFunction = () => [{ title: "Activities" }];

const KIND_LABELS = { registration: "Registration form", race: "Race", event_page: "Event page" } as const;
const NOTICES: Record<string, string> = { added: "Activity added.", tagged: "Activities saved." };

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const access = await requireClubAdmin(request, context, params.club ?? "");
  const clubId = access.stored.row.uuid as string;
  const [catalogue, subjects] = await Promise.all([activitiesOfClub(access.db, clubId), subjectsOfClub(access.db, clubId)]);
  const tags = new Map<string, string[]>();
  for (const kind of ACTIVITY_SUBJECTS) {
    const ids = subjects.filter((s) => s.kind === kind).map((s) => s.id);
    for (const [id, list] of await tagsOf(access.db, kind, ids)) tags.set(`${kind}:${id}`, list);
  }
  return {
    clubId,
    catalogue,
    subjects: subjects.map((s) => ({ ...s, key: `${s.kind}:${s.id}`, label: KIND_LABELS[s.kind], tags: tags.get(`${s.kind}:${s.id}`) ?? [] })),
    notice: NOTICES[new URL(request.url).searchParams.get("saved") ?? ""] ?? null,
    submission: crypto.randomUUID(),
  };
}

const addForm = z.object({
  submission: z.uuid(),
  name: z.string().trim().min(1, "Enter the activity's name").max(200, "At most 200 characters"),
  sport: z.string().trim().max(100, "At most 100 characters"),
});
const tagForm = z.object({
  target: z.string().regex(/^(registration|race|event_page):[0-9a-f-]{36}$/),
  activity: z.array(z.uuid()).max(MAX_TAGS, `Choose at most ${MAX_TAGS} activities`),
});
type Reply = { intent: string; target: string | null; errors: Record<string, string> };

export async function action({ request, context, params }: ActionFunctionArgs) {
  const access = await requireClubAdmin(request, context, params.club ?? "");
  const clubId = access.stored.row.uuid as string;
  const form = await request.formData();
  const text = (name: string) => (typeof form.get(name) === "string" ? (form.get(name) as string) : "");
  const intent = text("intent");
  const here = `/club/${clubId}/activities`;
  if (intent === "add") {
    const read = addForm.safeParse({ submission: text("submission"), name: text("name"), sport: text("sport") });
    if (!read.success) {
      const errors = Object.fromEntries(read.error.issues.map((i) => [String(i.path[0] === "submission" ? "form" : i.path[0]), i.message]));
      return data<Reply>({ intent, target: null, errors }, { status: 400 });
    }
    const created = await createEntity(access.entityContext, access.caller, Activity, {
      uuid: read.data.submission,
      club: clubId,
      name: read.data.name,
      sport: read.data.sport || null,
    });
    // The same form sent twice (a double click) made it the first time: the 409 of its one-time id is success.
    if (!created.ok && created.refusal.status !== 409)
      return data<Reply>({ intent, target: null, errors: { form: created.refusal.body.message } }, { status: created.refusal.status === 400 ? 400 : 403 });
    return redirect(`${here}?saved=added`);
  }
  if (intent === "tag") {
    const read = tagForm.safeParse({ target: text("target"), activity: form.getAll("activity").filter((v) => typeof v === "string") });
    if (!read.success) return data<Reply>({ intent, target: text("target") || null, errors: { form: "Choose activities of this club" } }, { status: 400 });
    const [kind, id] = read.data.target.split(":") as [(typeof ACTIVITY_SUBJECTS)[number], string];
    const saved = await setTags(access.db, clubId, kind, id, read.data.activity);
    if (!saved.ok) return data<Reply>({ intent, target: read.data.target, errors: { form: saved.error } }, { status: 400 });
    return redirect(`${here}?saved=tagged`);
  }
  return data<Reply>({ intent, target: null, errors: { form: "Unknown action" } }, { status: 400 });
}

export const ErrorBoundary = () => (
  <ErrorPage
    page
    forbidden="A club's activities are open to its Organization Admin."
    notFound="There is no such club, or you have no role in it."
    back={{ to: "/", label: "Home" }}
  />
);

export default function Activities() {
  const loaded = useLoaderData<typeof loader>();
  const reply = useActionData<Reply>();
  const addErrors = reply?.intent === "add" ? reply.errors : {};
  return (
    <ClubPage clubId={loaded.clubId} title="Activities">
      <SavedNotice message={loaded.notice} />
      <p>Tag the club&apos;s forms, races and event pages with activities; visitors of the club&apos;s site can list its races by activity.</p>
      {loaded.catalogue.length === 0 ? <p className="empty-state">No activity yet. Add the first below.</p> : null}
      {loaded.catalogue.length > 0 && loaded.subjects.length > 0 ? (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">What</th>
                <th scope="col">Activities</th>
              </tr>
            </thead>
            <tbody>
              {loaded.subjects.map((s) => (
                <tr key={s.key}>
                  <th scope="row">
                    {s.name} <span className="hint">({s.label})</span>
                  </th>
                  <td>
                    <Form method="post" className="inline-form" aria-label={`Activities of ${s.name}`}>
                      <input type="hidden" name="intent" value="tag" />
                      <input type="hidden" name="target" value={s.key} />
                      {reply?.intent === "tag" && reply.target === s.key ? <FormMessage error={reply.errors.form} /> : null}
                      {loaded.catalogue.map((a) => (
                        <label key={a.id} className="choice">
                          <input type="checkbox" name="activity" value={a.id} defaultChecked={s.tags.includes(a.id)} /> {a.name}
                        </label>
                      ))}
                      <button type="submit" className="small">
                        Save
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <h2>Add an activity</h2>
      <Form method="post" className="setup-form">
        <input type="hidden" name="intent" value="add" />
        <input type="hidden" name="submission" value={loaded.submission} />
        <FormMessage error={addErrors.form} />
        <TextField name="name" label="Name" hint="Such as Classic sprint, Biathlon or Youth programme." maxLength={200} error={addErrors.name} />
        <TextField name="sport" label="Sport" hint="Optional." maxLength={100} error={addErrors.sport} />
        <button type="submit">Add the activity</button>
      </Form>
    </ClubPage>
  );
}
