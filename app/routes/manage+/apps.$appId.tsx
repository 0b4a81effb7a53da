import { fieldErrorsOf } from "../../../core/entity/field-errors";
import { data, redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import * as z from "zod";
import { APP_LIMITS } from "../../../core/access/app-registration";
import { allScopes } from "../../../core/access/scopes";
import { openDb } from "../../../schema/d1";
import {
  appFormValues,
  deleteApp,
  getManageableApp,
  mayManageApps,
  rotateSecret,
  updateApp,
  updateAppSchema,
  type FieldErrors,
  type Refusal,
} from "../../../workers/services/apps";
import { APIApplication } from "../../../schema/entities/classes";
import { publishChange, publishFieldChanges } from "../../../workers/data-api/hub-client";
import { requireSession, rolesOf } from "../../auth.server";
import { ConfirmStep } from "../../components/form-kit";
import { AppNameFields, RedirectUrisField, ScopeChoices } from "../../components/app-fields";
import { FormMessage } from "../../components/auth-card";
import { ErrorPage, APPS_ERRORS } from "../../components/error-page";

/** These pages may show a client secret: no browser or proxy may store them. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Application: ${data.app.name}` : "Application" }];

async function manager(request: Request, context: LoaderFunctionArgs["context"]) {
  const session = requireSession(request, context);
  const principal = { userId: session.user.id, roles: await rolesOf(context, session.user.id), activeRoleId: session.activeRoleId };
  if (!mayManageApps(principal)) throw data("Forbidden", { status: 403 });
  return { principal, db: openDb(context.env.DB) };
}

const notFound = () => data("Not found", { status: 404 });

/** One app; `?confirm=delete` and `?confirm=rotate` are the confirmation steps, plain pages so they work without JavaScript. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { principal, db } = await manager(request, context);
  const found = await getManageableApp(db, principal, context.tenant, params.appId ?? "");
  if (!found) throw notFound();
  const url = new URL(request.url);
  const asked = url.searchParams.get("confirm");
  const confirm = asked === "delete" && found.mayDelete ? "delete" : asked === "rotate" && found.mayEdit && !found.app.isPublic ? "rotate" : null;
  return { ...found, confirm, saved: url.searchParams.has("saved"), scopes: allScopes, limits: APP_LIMITS };
}

type Echo = { name: string; description: string; redirect_uris: string; scopes: string[] };
type Result = { errors: FieldErrors; echo: Echo | null; clientSecret: string | null };

const refusalMessages: Record<Refusal, string> = {
  not_found: "This application does not exist or is not yours to manage.",
  forbidden: "You may view this application but not change it.",
  system_app: "This is a system application: only the platform changes it.",
  public_app: "A public client has no secret to rotate.",
};

function refused(refusal: Refusal) {
  if (refusal === "not_found") throw notFound();
  return data<Result>({ errors: { form: refusalMessages[refusal] }, echo: null, clientSecret: null }, { status: 403 });
}

const intentSchema = z.enum(["save", "rotate", "delete"], { error: "Unknown action" });

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { principal, db } = await manager(request, context);
  const id = params.appId ?? "";
  const form = await request.formData();
  const intent = intentSchema.safeParse(form.get("intent"));
  if (!intent.success)
    return data<Result>({ errors: { form: intent.error.issues[0]?.message ?? "Unknown action" }, echo: null, clientSecret: null }, { status: 400 });
  if (intent.data === "delete") {
    const result = await deleteApp(db, principal, context.tenant, id);
    if (!result.ok) return refused(result.refusal);
    publishChange(context, APIApplication, id, { fields: {}, field_mtimes: {}, deleted: true }, result.object);
    return redirect(`/manage/apps?deleted=${encodeURIComponent(result.name)}`);
  }
  if (intent.data === "rotate") {
    const result = await rotateSecret(db, principal, context.tenant, id);
    if (!result.ok) return refused(result.refusal);
    // The secret is in this response only; `headers` keeps it out of every cache.
    return data<Result>({ errors: {}, echo: null, clientSecret: result.clientSecret });
  }
  const values = appFormValues(form);
  const echo: Echo = {
    name: String(values.name ?? ""),
    description: String(values.description ?? ""),
    redirect_uris: String(values.redirect_uris ?? ""),
    scopes: values.scopes as string[],
  };
  const parsed = updateAppSchema.safeParse(values);
  if (!parsed.success) return data<Result>({ errors: fieldErrorsOf(parsed.error.issues), echo, clientSecret: null }, { status: 400 });
  const result = await updateApp(db, principal, context.tenant, id, parsed.data, context.now);
  if (!result.ok && "refusal" in result) return refused(result.refusal);
  if (!result.ok) {
    // Nothing was written; the page reloads with the current values (the form remounts on the new field times).
    const message = `Someone else changed ${result.stale.map((f) => f.replace("_", " ")).join(", ")} since you opened this page. The form now shows the current values; make your changes again.`;
    return data<Result>({ errors: { form: message }, echo: null, clientSecret: null }, { status: 409 });
  }
  // Data-service sockets following this app hear the change, as they would for a change made through the API.
  publishFieldChanges(context, APIApplication, id, result.changed, result.mtimes, result.object);
  return redirect(`/manage/apps/${encodeURIComponent(id)}?saved=1`);
}

const dateFormat = new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

export default function Application() {
  const { app, mayEdit, mayDelete, confirm, saved, scopes, limits } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const appPath = `/manage/apps/${app.id}`;
  const back = (
    <p>
      <Link to="/manage/apps">← Applications</Link>
    </p>
  );

  if (result?.clientSecret) {
    return (
      <main className="page" style={{ maxWidth: "40rem" }}>
        {back}
        <h1>{`New client secret for “${app.name}”`}</h1>
        <dl>
          <dt>Client ID</dt>
          <dd className="secret">{app.id}</dd>
          <dt>Client secret</dt>
          <dd className="secret" data-testid="client-secret">
            {result.clientSecret}
          </dd>
        </dl>
        <p className="form-error" role="alert">
          Copy the client secret now and put it into your application. It will not be shown again, and the previous secret no longer works.
        </p>
        <p>
          <Link to={appPath} className="button">
            Back to the application
          </Link>
        </p>
      </main>
    );
  }

  if (confirm === "delete") {
    return (
      <ConfirmStep
        back={back}
        title={`Delete application “${app.name}”?`}
        explanation="This revokes every token it holds: people who authorised it are signed out of it at once. It cannot be undone."
        error={result?.errors.form}
        action={appPath}
        intent="delete"
        label="Delete application"
        pendingLabel="Deleting…"
        pending={pending("delete")}
        danger
      />
    );
  }

  if (confirm === "rotate") {
    return (
      <ConfirmStep
        back={back}
        title={`Make a new client secret for “${app.name}”?`}
        explanation="The current secret stops working at once: the application cannot get or refresh tokens until it uses the new one. Tokens it already holds keep working until they expire."
        error={result?.errors.form}
        action={appPath}
        intent="rotate"
        label="Make a new secret"
        pendingLabel="Making a new secret…"
        pending={pending("rotate")}
      />
    );
  }

  const errors: FieldErrors = result?.errors ?? {};
  const echo = result?.echo ?? null;
  const chosenScopes: readonly string[] = echo?.scopes ?? app.scopes;
  const fieldErrorCount = Object.keys(errors).filter((k) => k !== "form").length;
  return (
    <main className="page" style={{ maxWidth: "40rem" }}>
      {back}
      <h1>{app.name}</h1>
      {saved && !result ? (
        <p className="form-notice" role="status">
          Your changes are saved.
        </p>
      ) : null}
      {errors.form ? <FormMessage error={errors.form} /> : null}
      {fieldErrorCount > 0 ? <FormMessage error="Please correct the fields marked below." /> : null}
      <dl>
        <dt>Client ID</dt>
        <dd className="secret" data-testid="client-id">
          {app.id}
        </dd>
        <dt>Type</dt>
        <dd>{app.isPublic ? "Public client (PKCE, no secret)" : "Confidential client (has a client secret)"}</dd>
        {app.isSystem ? (
          <>
            <dt>System application</dt>
            <dd>Approved for every user without asking; only the platform changes it.</dd>
          </>
        ) : null}
        <dt>Club</dt>
        <dd>{app.clubName ?? "None (platform application)"}</dd>
        <dt>Created</dt>
        <dd>
          <time dateTime={new Date(app.createdAt).toISOString()}>{dateFormat.format(app.createdAt)}</time>
        </dd>
      </dl>

      {mayEdit ? (
        <section aria-labelledby="edit-heading">
          <h2 id="edit-heading">Details</h2>
          <Form method="post" action={appPath} className="stack" key={JSON.stringify(app.fieldMtimes)}>
            <input type="hidden" name="intent" value="save" />
            <input type="hidden" name="field_mtimes" value={JSON.stringify(app.fieldMtimes)} />
            <AppNameFields name={echo?.name ?? app.name} description={echo?.description ?? app.description} limits={limits} errors={errors} />
            <RedirectUrisField max={limits.redirectUris} defaultValue={echo?.redirect_uris ?? app.redirectUris.join("\n")} error={errors.redirect_uris} />
            <ScopeChoices scopes={scopes} chosen={chosenScopes} error={errors.scopes} />
            <button type="submit" disabled={pending("save")}>
              {pending("save") ? "Saving…" : "Save changes"}
            </button>
          </Form>
        </section>
      ) : (
        <section aria-labelledby="details-heading">
          <h2 id="details-heading">Details</h2>
          <p>{app.description || <span className="empty-state">No description.</span>}</p>
          <h3>Redirect URIs</h3>
          <ul>
            {app.redirectUris.map((uri) => (
              <li key={uri} className="secret">
                {uri}
              </li>
            ))}
          </ul>
          <h3>Scopes</h3>
          <p>{app.scopes.length > 0 ? app.scopes.join(", ") : "None"}</p>
        </section>
      )}

      {mayEdit && !app.isPublic ? (
        <section aria-labelledby="secret-heading">
          <h2 id="secret-heading">Client secret</h2>
          <p>The secret was shown once, when it was made; only a hash of it is stored. If it is lost or leaked, make a new one.</p>
          <Link to={`${appPath}?confirm=rotate`} className="button secondary">
            Make a new client secret…
          </Link>
        </section>
      ) : null}

      {mayDelete ? (
        <section aria-labelledby="delete-heading">
          <h2 id="delete-heading">Delete</h2>
          <p>Deleting the application revokes every token it holds.</p>
          <Link to={`${appPath}?confirm=delete`} className="button danger">
            Delete this application…
          </Link>
        </section>
      ) : null}
    </main>
  );
}

export const ErrorBoundary = () => <ErrorPage page {...APPS_ERRORS} />;
