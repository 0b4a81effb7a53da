import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { BLOCK_LABELS, BLOCK_TYPES, editDraft, MAX_NEWSLETTER_BLOCKS, readDraft, type DraftBlock, type NewsletterDraft } from "../../admin/newsletter-draft";
import {
  draftReply,
  newsletterData,
  requireNewsletterAccess,
  saveNewsletter,
  scheduledTime,
  sendNow,
  sendTest,
  withNewsletterUploads,
} from "../../admin/newsletters.server";
import { BlockListEditor } from "../../components/block-list-editor";
import { CheckboxField, Field, SavedNotice, TextAreaField, TextField } from "../../components/form-kit";
import { NEWSLETTER_ERRORS, ErrorPage } from "../../components/error-page";
import { readPostedForm } from "../../forms/posted-form.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.draft.subject} · Newsletter` : "Newsletter" }];

const NOTICES: Record<string, string> = {
  saved: "Your changes are saved.",
  sending: "Sending: the newsletter is on its way to its readers.",
  scheduled: "Scheduled.",
  unscheduled: "No longer scheduled: it is a draft again.",
  tested: "A test copy is on its way to you.",
};

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const access = await requireNewsletterAccess(request, context, params.club ?? "");
  const page = await newsletterData(access, params.newsletter ?? "", access.session.user.email);
  return { ...page, notice: NOTICES[new URL(request.url).searchParams.get("saved") ?? ""] ?? null };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const access = await requireNewsletterAccess(request, context, params.club ?? "");
  const id = params.newsletter ?? "";
  const posted = await readPostedForm(request);
  // Images chosen in the form are uploaded on every step, so one chosen before "Add" is kept.
  const { draft, errors: refusedUploads } = await withNewsletterUploads(access, readDraft(posted), posted);
  const back = (notice: string) => redirect(`/club/${access.clubId}/newsletters/${id}?saved=${notice}`);
  const uploadsRefused = Object.keys(refusedUploads).length > 0;
  const edited = editDraft(draft, posted.intent);
  if (edited) return draftReply(edited, refusedUploads, uploadsRefused ? 400 : 200);
  if (uploadsRefused) return draftReply(draft, refusedUploads, 400);
  switch (posted.intent) {
    case "save": {
      const saved = await saveNewsletter(access, id, draft, undefined);
      return saved.ok ? back("saved") : draftReply(draft, saved.errors, 400);
    }
    case "send": {
      const sent = await sendNow(access, id, draft);
      return sent.ok ? back("sending") : draftReply(draft, sent.errors, 400);
    }
    case "schedule": {
      const at = scheduledTime(posted, access.zone);
      if (!at.ok) return draftReply(draft, at.errors, 400);
      const saved = await saveNewsletter(access, id, draft, at.at);
      return saved.ok ? back("scheduled") : draftReply(draft, saved.errors, 400);
    }
    case "unschedule": {
      const saved = await saveNewsletter(access, id, draft, null);
      return saved.ok ? back("unscheduled") : draftReply(draft, saved.errors, 400);
    }
    case "test": {
      const saved = await saveNewsletter(access, id, draft, undefined);
      if (!saved.ok) return draftReply(draft, saved.errors, 400);
      await sendTest(access, id, access.session.user.email);
      return back("tested");
    }
    default:
      return draftReply(draft, { form: "Unknown action" }, 400);
  }
}

export const ErrorBoundary = () => <ErrorPage page {...NEWSLETTER_ERRORS} />;

function BlockFields({ block, index, errors }: { block: DraftBlock; index: number; errors: Record<string, string> }) {
  const name = (field: string) => `b${index}.${field}`;
  const error = (field: string) => errors[name(field)];
  return (
    <>
      <input type="hidden" name={name("type")} value={block.type} />
      {block.type === "header" ? <TextField name={name("text")} label="Heading" defaultValue={block.text} error={error("text")} maxLength={200} /> : null}
      {block.type === "text" ? (
        <TextAreaField name={name("text")} label="Text" hint="A blank line starts a new paragraph." defaultValue={block.text} error={error("text")} rows={5} />
      ) : null}
      {block.type === "image" ? (
        <>
          {block.image_url ? <img src={block.image_url} alt="" style={{ maxWidth: "16rem", height: "auto" }} /> : null}
          <Field id={name("file")} label="Upload an image" hint="PNG, JPEG, WebP or GIF, at most 2 MB; kept on the club's site" error={error("image_url")}>
            {(describedBy) => (
              <input id={name("file")} name={name("file")} type="file" accept="image/png,image/jpeg,image/webp,image/gif" aria-describedby={describedBy} />
            )}
          </Field>
          <TextField name={name("image_url")} type="url" label="Or its web address (https://…)" defaultValue={block.image_url} />
          <TextField name={name("text")} label="Description for readers who cannot see it" defaultValue={block.text} error={error("text")} />
          <TextField name={name("url")} type="url" label="Link (optional)" defaultValue={block.url} error={error("url")} />
        </>
      ) : null}
      {block.type === "button" ? (
        <>
          <TextField name={name("text")} label="Button text" defaultValue={block.text} error={error("text")} maxLength={200} />
          <TextField name={name("url")} type="url" label="Link (https://…)" defaultValue={block.url} error={error("url")} />
        </>
      ) : null}
      {block.type === "logo" ? (
        <>
          <TextField
            name={name("image_url")}
            type="url"
            label="Logo address (empty: the site's logo)"
            defaultValue={block.image_url}
            error={error("image_url")}
          />
          <TextField name={name("url")} type="url" label="Link (optional)" defaultValue={block.url} error={error("url")} />
        </>
      ) : null}
    </>
  );
}

export default function NewsletterEditor() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<{ draft: NewsletterDraft; errors: Record<string, string> }>();
  const navigation = useNavigation();
  const draft = reply?.draft ?? data.draft;
  const errors = reply?.errors ?? {};
  const busy = navigation.state !== "idle";
  const fieldErrors = Object.keys(errors).filter((k) => k !== "form").length;
  // A new key per reply, so the inputs show the draft the server answered with (a block added or moved).
  const formKey = JSON.stringify(draft.blocks.map((b) => b.type + b.image_url)) + (reply ? "r" : "l");
  return (
    <main className="page">
      <p>
        <Link to={`/club/${data.clubId}/newsletters`}>← Newsletters</Link>
      </p>
      <h1>{data.draft.subject}</h1>
      <p>
        <strong>Status:</strong> {data.state}
      </p>
      <SavedNotice message={data.notice} />
      {data.locked ? (
        <p className="hint">This newsletter has been sent and can no longer be changed. Below is what its readers received.</p>
      ) : (
        <Form method="post" encType="multipart/form-data" key={formKey} className="setup-form">
          <input type="hidden" name="count" value={draft.blocks.length} />
          {errors.form ? <p className="form-error">{errors.form}</p> : null}
          {fieldErrors > 0 ? <p className="form-error">Please correct the fields marked below.</p> : null}
          <TextField name="subject" label="Subject" defaultValue={draft.subject} error={errors.subject} required maxLength={200} />
          <h2>Content</h2>
          {errors.elements ? <p className="form-error">{errors.elements}</p> : null}
          <BlockListEditor
            blocks={draft.blocks}
            types={BLOCK_TYPES}
            labels={BLOCK_LABELS}
            busy={busy}
            max={MAX_NEWSLETTER_BLOCKS}
            fields={(block, index) => <BlockFields block={block} index={index} errors={errors} />}
          />
          <h2>Who receives it</h2>
          <p aria-label="Audience">
            <strong>As saved:</strong> {data.summary}
            {data.readers === null ? null : ` — ${data.readers} ${data.readers === 1 ? "reader" : "readers"} today`}
          </p>
          {errors.audience ? <p className="form-error">{errors.audience}</p> : null}
          <CheckboxField name="members" label="The club's current members" defaultChecked={draft.members} />
          {data.forms.map((form) => (
            <CheckboxField
              key={form.id}
              id={`form-${form.id}`}
              name={`form:${form.id}`}
              label={`Everyone registered on ${form.name}`}
              defaultChecked={draft.registrations.includes(form.id)}
            />
          ))}
          {data.races.map((race) => (
            <CheckboxField
              key={race.id}
              id={`race-${race.id}`}
              name={`race:${race.id}`}
              label={`Everyone entered in ${race.name}`}
              defaultChecked={draft.races.includes(race.id)}
            />
          ))}
          {data.races.length > 0 ? (
            <Field id="entrants" label="Of the races' entrants">
              {(describedBy) => (
                <select id="entrants" name="entrants" defaultValue={draft.entrants} aria-describedby={describedBy}>
                  <option value="entered">Everyone entered</option>
                  <option value="finished">Only those who finished</option>
                </select>
              )}
            </Field>
          ) : null}
          {data.courses.length > 0 ? (
            <fieldset className="block-fieldset">
              <legend>Only the entrants on these courses (none ticked: every course)</legend>
              {data.courses.map((course) => (
                <CheckboxField
                  key={course.id}
                  id={`course-${course.id}`}
                  name={`course:${course.id}`}
                  label={`${course.name} (${course.race})`}
                  defaultChecked={draft.courses.includes(course.id)}
                />
              ))}
            </fieldset>
          ) : null}
          {data.categories.length > 0 ? (
            <fieldset className="block-fieldset">
              <legend>Only the entrants in these categories (none ticked: every category)</legend>
              {data.categories.map((category, i) => (
                <CheckboxField
                  key={category}
                  id={`category-${i}`}
                  name={`category:${category}`}
                  label={category}
                  defaultChecked={draft.categories.includes(category)}
                />
              ))}
            </fieldset>
          ) : null}
          {data.races.length > 0 ? (
            <p className="hint">The courses and categories offered are those of the races as saved: after choosing other races, save to filter by theirs.</p>
          ) : null}
          <p className="hint">
            Each address receives it once, and never after its owner unsubscribed from the club's newsletters. A race's entrants are those entered from a
            registration form, at the address they registered with.
          </p>
          <p>
            <button type="submit" name="intent" value="save" disabled={busy}>
              Save
            </button>{" "}
            <button type="submit" name="intent" value="test" disabled={busy}>
              {`Save and send a test to ${data.userEmail}`}
            </button>
          </p>
          <h2>Send</h2>
          <Field id="at" label={`Send at (${data.zone})`} error={errors.at ?? errors.sent_time}>
            {(describedBy) => <input id="at" name="at" type="datetime-local" defaultValue={data.scheduleAt} aria-describedby={describedBy} />}
          </Field>
          <p>
            <button type="submit" name="intent" value="schedule" disabled={busy}>
              Save and schedule
            </button>{" "}
            <button type="submit" name="intent" value="send" disabled={busy}>
              Save and send now
            </button>{" "}
            {data.scheduled ? (
              <button type="submit" name="intent" value="unschedule" className="small" disabled={busy}>
                Cancel the schedule
              </button>
            ) : null}
          </p>
        </Form>
      )}
      <h2>Preview (as saved)</h2>
      <iframe
        title="Preview of the newsletter as saved"
        srcDoc={data.previewHtml}
        sandbox=""
        style={{ width: "100%", height: "32rem", border: "1px solid #e5e7eb" }}
      />
    </main>
  );
}
