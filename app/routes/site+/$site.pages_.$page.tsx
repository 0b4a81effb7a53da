import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { BlockListEditor } from "../../components/block-list-editor";
import { blockDraftReply, blockEditorStep } from "../../admin/block-uploads.server";
import { editPageDraft, MAX_DRAFT_BLOCKS, PAGE_BLOCK_LABELS, PAGE_BLOCK_TYPES, readPageDraft, type PageDraft } from "../../admin/page-draft";
import { deletePage, pageEditorData, pagesBase, requireSitePages, savePage } from "../../admin/site-pages.server";
import { ErrorPage } from "../../components/error-page";
import { SavedNotice, TextField } from "../../components/form-kit";
import { blockFormKey, SiteBlockFields } from "../../components/site-block-fields";
import { PageBlocks } from "../../components/page-blocks";
import { readPostedForm } from "../../forms/posted-form.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.englishTitle} · Pages` : "Page" }];

const NOTICES: Record<string, string> = {
  saved: "Your changes are saved.",
  published: "Published: visitors see this page now.",
  unpublished: "Taken down: the page is a draft again.",
};

const langOf = (request: Request) => (new URL(request.url).searchParams.get("lang") === "fr" ? "fr" : "en");

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const access = await requireSitePages(request, context, params.site ?? "");
  const page = await pageEditorData(access, params.page ?? "", langOf(request));
  return { ...page, siteId: access.siteId, notice: NOTICES[new URL(request.url).searchParams.get("saved") ?? ""] ?? null };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const access = await requireSitePages(request, context, params.site ?? "");
  const id = params.page ?? "";
  const lang = langOf(request);
  const posted = await readPostedForm(request);
  if (posted.intent === "delete") return deletePage(access, id);
  // Images chosen in the form are uploaded on every step, so one chosen before "Add" is kept.
  const step = await blockEditorStep(access.entityContext.env, access.siteId, posted, readPageDraft(posted), editPageDraft);
  if (step.reply) return step.reply;
  const draft = step.draft;
  const publish = posted.intent === "publish" ? true : posted.intent === "unpublish" ? false : posted.intent === "save" ? undefined : null;
  if (publish === null) return blockDraftReply(draft, { form: "Unknown action" }, 400);
  const saved = await savePage(access, id, lang, draft, publish);
  if (!saved.ok) return blockDraftReply(draft, saved.errors, saved.status === 409 ? 409 : saved.status === 403 ? 403 : 400);
  const notice = publish === true ? "published" : publish === false ? "unpublished" : "saved";
  return redirect(`${pagesBase(access.siteId)}/${id}?${lang === "fr" ? "lang=fr&" : ""}saved=${notice}`);
}

export default function PageEditor() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<{ draft: PageDraft; errors: Record<string, string> }>();
  const busy = useNavigation().state !== "idle";
  const draft = reply?.draft ?? data.draft;
  const errors = reply?.errors ?? {};
  const french = data.lang === "fr";
  const fieldErrors = Object.keys(errors).filter((k) => k !== "form").length;
  const formKey = blockFormKey(draft.blocks, reply !== undefined);
  const action = french ? "?lang=fr" : "?";
  return (
    <main className="page">
      <p>
        <Link to={`/site/${data.siteId}/pages`}>← Pages</Link>
      </p>
      <h1>{data.englishTitle}</h1>
      <p>
        <strong>State:</strong> {data.published ? "Published" : "Draft"} · <code>{data.path}</code>
        {data.published ? (
          <>
            {" · "}
            <a href={`//${data.hostname}${data.path}`}>Open the page</a>
          </>
        ) : null}
      </p>
      {data.frenchOffered || french ? (
        <p>
          {french ? <Link to="?">English</Link> : <strong>English</strong>} · {french ? <strong>Français</strong> : <Link to="?lang=fr">Français</Link>}
        </p>
      ) : null}
      <SavedNotice message={data.notice} />
      <Form method="post" action={action} encType="multipart/form-data" key={formKey} className="setup-form">
        <input type="hidden" name="count" value={draft.blocks.length} />
        {errors.form ? <p className="form-error">{errors.form}</p> : null}
        {fieldErrors > 0 ? <p className="form-error">Please correct the fields marked below.</p> : null}
        {french ? <p className="hint">The French version: empty, visitors who chose French see the English page.</p> : null}
        <TextField
          name="title"
          label={french ? "Title in French" : "Title"}
          defaultValue={draft.title}
          error={errors.title}
          maxLength={200}
          required={!french}
        />
        {french ? (
          <input type="hidden" name="path" value={draft.path} />
        ) : (
          <TextField name="path" label="Address" hint="Such as /about" defaultValue={draft.path} error={errors.path} maxLength={200} required />
        )}
        <h2>Content</h2>
        {errors.body ? <p className="form-error">{errors.body}</p> : null}
        <BlockListEditor
          blocks={draft.blocks}
          types={PAGE_BLOCK_TYPES}
          labels={PAGE_BLOCK_LABELS}
          busy={busy}
          max={MAX_DRAFT_BLOCKS}
          fields={(block, index) => <SiteBlockFields block={block} index={index} errors={errors} />}
        />
        <p>
          <button type="submit" name="intent" value="save" disabled={busy}>
            Save
          </button>{" "}
          {data.published ? (
            <button type="submit" name="intent" value="unpublish" className="secondary" disabled={busy}>
              Save and take down
            </button>
          ) : (
            <button type="submit" name="intent" value="publish" disabled={busy}>
              Save and publish
            </button>
          )}
        </p>
      </Form>
      <h2>Preview (as saved)</h2>
      <div className="page-preview" aria-label="Preview">
        <h1>{data.draft.title || data.englishTitle}</h1>
        <PageBlocks body={data.preview} lang={data.lang} />
      </div>
      <Form method="post" className="setup-form">
        <h2>Delete</h2>
        <p className="hint">Deleting removes the page and both its languages; its address then shows Not found.</p>
        <button type="submit" name="intent" value="delete" className="danger" disabled={busy}>
          Delete this page
        </button>
      </Form>
    </main>
  );
}

export const ErrorBoundary = () => (
  <ErrorPage
    page
    forbidden="This page is for the site's Site Administrators, and System Administrators with the sites flag."
    notFound="There is no such page on this site."
    back={{ to: "/manage", label: "Manage" }}
  />
);
