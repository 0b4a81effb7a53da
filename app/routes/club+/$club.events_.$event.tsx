import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { deleteEventPage, eventEditorData, requireEventPages, saveBanner, saveEventPage } from "../../admin/club-events.server";
import { EVENT_PAGE_ERRORS, ErrorPage } from "../../components/error-page";
import {
  CheckboxField,
  ConfirmPanel,
  Field,
  SavedNotice,
  SelectField,
  SetupForm,
  TextAreaField,
  TextField,
  useReplyFor,
  type FieldErrors,
} from "../../components/form-kit";
import { pageQuery, readPostedForm, unknownIntent } from "../../forms/posted-form.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${String(data.event.name)} · Event pages` : "Event page" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const access = await requireEventPages(request, context, params.club ?? "");
  const query = pageQuery(request);
  return { clubId: access.clubId, ...(await eventEditorData(access, params.event ?? "")), saved: query.saved, confirmDelete: query.remove === "1" };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const access = await requireEventPages(request, context, params.club ?? "");
  const id = params.event ?? "";
  const posted = await readPostedForm(request);
  if (posted.intent === "save") return saveEventPage(access, id, posted);
  if (posted.intent === "banner") return saveBanner(access, id, posted);
  if (posted.intent === "delete") return deleteEventPage(access, id);
  return unknownIntent(posted);
}

export const ErrorBoundary = () => <ErrorPage page {...EVENT_PAGE_ERRORS} />;

const HEADERS = [
  { value: "banner", label: "The banner above the title" },
  { value: "title", label: "The title alone" },
  { value: "none", label: "Neither (the page starts with its details)" },
];
const STATUSES = [
  { value: "scheduled", label: "Scheduled" },
  { value: "postponed", label: "Postponed" },
  { value: "cancelled", label: "Cancelled" },
];

/** The club's races or forms as boxes to tick, the linked ones first with their place in the page's order. */
function LinkList(props: {
  legend: string;
  prefix: "race" | "form";
  items: readonly { id: string; name: string }[];
  linked: readonly string[];
  typed: Record<string, string> | null;
  error?: string;
}) {
  const ordered = [...props.linked.flatMap((id) => props.items.filter((i) => i.id === id)), ...props.items.filter((i) => !props.linked.includes(i.id))];
  return (
    <fieldset className="block-fieldset">
      <legend>{props.legend}</legend>
      {props.error ? <p className="form-error">{props.error}</p> : null}
      {ordered.length === 0 ? <p className="hint">The club has none yet.</p> : null}
      {ordered.map((item) => {
        const position = props.linked.indexOf(item.id);
        const key = `${props.prefix}:${item.id}`;
        return (
          <div key={item.id} className="inline-fields">
            <CheckboxField id={key} name={key} label={item.name} defaultChecked={props.typed ? props.typed[key] === "on" : position >= 0} />
            <TextField
              id={`${props.prefix}_order:${item.id}`}
              name={`${props.prefix}_order:${item.id}`}
              label={`Place of ${item.name} on the page`}
              inputMode="numeric"
              defaultValue={props.typed?.[`${props.prefix}_order:${item.id}`] ?? (position >= 0 ? position + 1 : "")}
            />
          </div>
        );
      })}
      <p className="hint">Ticked ones are linked on the event page, in the order of their places (1 first).</p>
    </fieldset>
  );
}

export default function EventPageEditor() {
  const data = useLoaderData<typeof loader>();
  const reply = useReplyFor("save");
  const errors: FieldErrors = reply.errors;
  const v = (field: keyof typeof data.event) => reply.values?.[field] ?? (data.event[field] === null ? "" : String(data.event[field]));
  const list = `/club/${data.clubId}/events`;
  const base = `${list}/${data.id}`;
  return (
    <main className="page">
      <p>
        <Link to={list}>← Event pages</Link>
      </p>
      <h1>{String(data.event.title || data.event.name)}</h1>
      <p>
        <strong>State:</strong> {data.siteUrl ? "Public" : "Draft"}
        {data.siteUrl ? (
          <>
            {" · "}
            <a href={data.siteUrl}>View on the site</a>
          </>
        ) : null}
      </p>
      <SavedNotice message={data.saved} />
      {data.confirmDelete ? (
        <ConfirmPanel
          title="Delete this event page?"
          explanation="Its address then shows Not found on the site, and calendars drop it. The races and forms it links stay as they are."
          intent="delete"
          label="Delete the event page"
          busyLabel="Deleting…"
          cancelTo={base}
        />
      ) : null}
      <SetupForm intent="save" label="Save" busyLabel="Saving…" errors={errors}>
        <input type="hidden" name="original" value={data.original} />
        <input type="hidden" name="mtimes" value={data.mtimes} />
        <TextField name="name" label="Name" error={errors.name} defaultValue={v("name")} required maxLength={200} />
        <TextField name="title" label="Title on the page (empty: the name)" error={errors.title} defaultValue={v("title")} maxLength={200} />
        <TextField name="year" label="Year" inputMode="numeric" error={errors.year} defaultValue={v("year")} />
        <TextField name="start_date" type="date" label="First day" error={errors.start_date} defaultValue={v("start_date")} />
        <TextField name="end_date" type="date" label="Last day" error={errors.end_date} defaultValue={v("end_date")} />
        <TextField
          name="page_url"
          label="Address on the site"
          hint="Lowercase letters, digits and hyphens: spring-loppet is at /events/spring-loppet"
          error={errors.page_url}
          defaultValue={v("page_url")}
          maxLength={100}
        />
        <TextAreaField name="description" label="Description" error={errors.description} defaultValue={v("description")} rows={6} />
        <TextField name="sport" label="Sport" error={errors.sport} defaultValue={v("sport")} maxLength={200} />
        <TextField name="location" label="Where (empty: the first race's place)" error={errors.location} defaultValue={v("location")} maxLength={200} />
        <SelectField name="header_option" label="Top of the page" error={errors.header_option} choices={HEADERS} defaultValue={v("header_option")} />
        <SelectField name="event_status" label="Status" error={errors.event_status} choices={STATUSES} defaultValue={v("event_status")} />
        <LinkList legend="Races on the page" prefix="race" items={data.races} linked={data.raceIds} typed={reply.values} error={errors.race_ids} />
        <LinkList
          legend="Registration forms on the page"
          prefix="form"
          items={data.forms}
          linked={data.formIds}
          typed={reply.values}
          error={errors.registration_ids}
        />
        <CheckboxField
          name="is_public"
          label="Public: shown on the site's events (needs an address)"
          defaultChecked={reply.values ? reply.values.is_public === "on" : data.event.is_public === true}
        />
      </SetupForm>
      <BannerForm bannerUrl={data.bannerUrl} hasSite={data.hasSite} />
      <h2>Delete</h2>
      <p>
        <Link to={`${base}?delete=1`} className="button danger">
          Delete this event page…
        </Link>
      </p>
    </main>
  );
}

/** The banner: a PNG, JPEG, WebP or GIF of at most 2 MB, kept on the club's site (decision 0056). */
function BannerForm({ bannerUrl, hasSite }: { bannerUrl: string | null; hasSite: boolean }) {
  const reply = useReplyFor("banner");
  const busy = useNavigation().formData?.get("intent") === "banner";
  return (
    <Form method="post" encType="multipart/form-data" className="setup-form">
      <h2>Banner</h2>
      <input type="hidden" name="intent" value="banner" />
      {reply.errors.form ? <p className="form-error">{reply.errors.form}</p> : null}
      {bannerUrl ? (
        <img src={bannerUrl} alt="The event's banner" className="banner-preview" style={{ maxWidth: "100%", height: "auto" }} />
      ) : (
        <p className="hint">No banner yet.</p>
      )}
      {hasSite ? (
        <>
          <Field id="banner" label="New banner" hint="PNG, JPEG, WebP or GIF, at most 2 MB; shown across the top of the event page" error={reply.errors.banner}>
            {(describedBy) => <input id="banner" name="banner" type="file" accept="image/png,image/jpeg,image/webp,image/gif" aria-describedby={describedBy} />}
          </Field>
          <button type="submit" disabled={busy}>
            {busy ? "Uploading…" : "Upload the banner"}
          </button>{" "}
        </>
      ) : (
        <p className="hint">The club has no site yet, so a banner cannot be uploaded.</p>
      )}
      {bannerUrl ? (
        <button type="submit" name="remove" value="1" className="secondary" disabled={busy}>
          Remove the banner
        </button>
      ) : null}
    </Form>
  );
}
