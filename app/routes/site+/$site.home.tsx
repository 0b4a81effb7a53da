import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { editHomeDraft, HOME_BLOCK_LABELS, HOME_BLOCK_TYPES, readHomeDraft, type DraftHomeBlock, type HomeDraft } from "../../admin/home-draft";
import { homeDraftReply, homeEditorData, saveHome, withUploads } from "../../admin/site-home.server";
import { requireSitePages } from "../../admin/site-pages.server";
import { BlockListEditor } from "../../components/block-list-editor";
import { ErrorPage } from "../../components/error-page";
import { Field, SavedNotice, TextAreaField, TextField } from "../../components/form-kit";
import { HomeBlocks } from "../../components/home-blocks";
import { readPostedForm } from "../../forms/posted-form.server";
import { MAX_HOME_BLOCKS } from "../../../schema/wire/page-blocks";

export const meta: MetaFunction = () => [{ title: "Home page · Site Settings" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const access = await requireSitePages(request, context, params.site ?? "");
  const saved = new URL(request.url).searchParams.get("saved") === "saved" ? "Saved: visitors see the new home page now." : null;
  return { siteId: access.siteId, ...(await homeEditorData(access)), notice: saved };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const access = await requireSitePages(request, context, params.site ?? "");
  const posted = await readPostedForm(request);
  // Images chosen in the form are uploaded on every step, so one chosen before "Add" is kept.
  const { draft, errors } = await withUploads(access, readHomeDraft(posted), posted);
  const edited = editHomeDraft(draft, posted.intent);
  if (edited) return homeDraftReply(edited, errors, Object.keys(errors).length > 0 ? 400 : 200);
  if (posted.intent !== "save") return homeDraftReply(draft, { form: "Unknown action" }, 400);
  if (Object.keys(errors).length > 0) return homeDraftReply(draft, errors, 400);
  return saveHome(access, draft, posted);
}

function BlockFields({ block, index, errors }: { block: DraftHomeBlock; index: number; errors: Record<string, string> }) {
  const name = (field: string) => `b${index}.${field}`;
  const error = (field: string) => errors[name(field)];
  return (
    <>
      <input type="hidden" name={name("type")} value={block.type} />
      {block.type === "heading" ? <TextField name={name("text")} label="Heading" defaultValue={block.text} error={error("text")} maxLength={200} /> : null}
      {block.type === "events" || block.type === "races" ? (
        <TextField name={name("text")} label="Heading above the list" defaultValue={block.text} error={error("text")} maxLength={200} />
      ) : null}
      {block.type === "text" ? (
        <TextAreaField
          name={name("text")}
          label="Text"
          hint="A blank line starts a new paragraph; write a link as [its words](/events) or [its words](https://…)."
          defaultValue={block.text}
          error={error("text")}
          rows={5}
        />
      ) : null}
      {block.type === "image" ? (
        <>
          {block.image_url ? <img src={block.image_url} alt="" style={{ maxWidth: "16rem", height: "auto" }} /> : null}
          <Field id={name("file")} label="Upload an image" hint="PNG, JPEG, WebP or GIF, at most 2 MB" error={error("image_url")}>
            {(describedBy) => (
              <input id={name("file")} name={name("file")} type="file" accept="image/png,image/jpeg,image/webp,image/gif" aria-describedby={describedBy} />
            )}
          </Field>
          <TextField name={name("image_url")} label="Or its web address (https://…)" defaultValue={block.image_url} />
          <TextField name={name("alt")} label="Description for readers who cannot see it" defaultValue={block.alt} error={error("alt")} />
        </>
      ) : null}
      {block.type === "button" ? (
        <>
          <TextField name={name("text")} label="Button text" defaultValue={block.text} error={error("text")} maxLength={200} />
          <TextField name={name("url")} label="Goes to (/a-page or https://…)" defaultValue={block.url} error={error("url")} />
        </>
      ) : null}
    </>
  );
}

export default function HomeEditor() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<{ draft: HomeDraft; errors: Record<string, string> }>();
  const busy = useNavigation().state !== "idle";
  const draft = reply?.draft ?? data.draft;
  const errors = reply?.errors ?? {};
  const fieldErrors = Object.keys(errors).filter((k) => k !== "form").length;
  // A new key per reply, so the inputs show the draft the server answered with (a block added or moved).
  const formKey = JSON.stringify(draft.blocks.map((b) => b.type + b.image_url)) + (reply ? "r" : "l");
  return (
    <main className="page">
      <p>
        <Link to={`/site/${data.siteId}/settings`}>← Site settings</Link>
      </p>
      <h1>Home page</h1>
      <p>
        With no blocks, the home page shows the site&apos;s tagline and its upcoming races. <a href={`//${data.hostname}/`}>Open the home page</a>
      </p>
      <SavedNotice message={data.notice} />
      <Form method="post" encType="multipart/form-data" key={formKey} className="setup-form">
        <input type="hidden" name="count" value={draft.blocks.length} />
        <input type="hidden" name="mtime" value={data.mtime} />
        {errors.form ? <p className="form-error">{errors.form}</p> : null}
        {fieldErrors > 0 ? <p className="form-error">Please correct the fields marked below.</p> : null}
        <BlockListEditor
          blocks={draft.blocks}
          types={HOME_BLOCK_TYPES}
          labels={HOME_BLOCK_LABELS}
          busy={busy}
          max={MAX_HOME_BLOCKS}
          fields={(block, index) => <BlockFields block={block} index={index} errors={errors} />}
        />
        <p>
          <button type="submit" name="intent" value="save" disabled={busy}>
            Save the home page
          </button>
        </p>
      </Form>
      <h2>Preview (as saved)</h2>
      <div className="page-preview" aria-label="Preview">
        {data.preview.blocks.length === 0 ? (
          <p className="hint">No blocks saved: visitors see the tagline and the upcoming races.</p>
        ) : (
          <HomeBlocks blocks={data.preview.blocks} events={data.preview.events} races={data.preview.races} />
        )}
      </div>
    </main>
  );
}

export const ErrorBoundary = () => (
  <ErrorPage
    page
    forbidden="This page is for the site's Site Administrators, and System Administrators with the sites flag."
    notFound="There is no such site."
    back={{ to: "/manage", label: "Manage" }}
  />
);
