import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { blockDraftReply, blockEditorStep } from "../../admin/block-uploads.server";
import { editHomeDraft, HOME_BLOCK_LABELS, HOME_BLOCK_TYPES, readHomeDraft, type HomeDraft } from "../../admin/home-draft";
import { homeEditorData, saveHome } from "../../admin/site-home.server";
import { requireSitePages } from "../../admin/site-pages.server";
import { BlockListEditor } from "../../components/block-list-editor";
import { ErrorPage } from "../../components/error-page";
import { SavedNotice } from "../../components/form-kit";
import { blockFormKey, SiteBlockFields } from "../../components/site-block-fields";
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
  const step = await blockEditorStep(access.entityContext.env, access.siteId, posted, readHomeDraft(posted), editHomeDraft);
  if (step.reply) return step.reply;
  if (posted.intent !== "save") return blockDraftReply(step.draft, { form: "Unknown action" }, 400);
  return saveHome(access, step.draft, posted);
}

export default function HomeEditor() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<{ draft: HomeDraft; errors: Record<string, string> }>();
  const busy = useNavigation().state !== "idle";
  const draft = reply?.draft ?? data.draft;
  const errors = reply?.errors ?? {};
  const fieldErrors = Object.keys(errors).filter((k) => k !== "form").length;
  const formKey = blockFormKey(draft.blocks, reply !== undefined);
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
          fields={(block, index) => <SiteBlockFields block={block} index={index} errors={errors} />}
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
