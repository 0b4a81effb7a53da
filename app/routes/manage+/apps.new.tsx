import { fieldErrorsOf } from "../../../core/entity/field-errors";
import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { APP_LIMITS } from "../../../core/access/app-registration";
import { allScopes } from "../../../core/access/scopes";
import { openDb } from "../../../schema/d1";
import { appFormValues, createApp, createAppSchema, creatableClubs, mayCreateApps, type FieldErrors } from "../../../workers/services/apps";
import { requireSession, rolesOf } from "../../auth.server";
import { boxStyle, choiceStyle, Field, groupStyle } from "../../components/form-kit";
import { AppNameFields, RedirectUrisField, ScopeChoices } from "../../components/app-fields";
import { FormMessage } from "../../components/auth-card";
import { ErrorPage, APPS_ERRORS } from "../../components/error-page";

/** These pages may show a client secret: no browser or proxy may store them. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export const meta: MetaFunction = () => [{ title: "Create an application" }];

async function creator(request: Request, context: LoaderFunctionArgs["context"]) {
  const session = requireSession(request, context);
  const principal = { userId: session.user.id, roles: await rolesOf(context, session.user.id), activeRoleId: session.activeRoleId };
  const db = openDb(context.env.DB);
  const choices = await creatableClubs(db, principal, context.tenant);
  if (!mayCreateApps(choices)) throw data("Forbidden", { status: 403 });
  return { principal, db, choices };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { choices } = await creator(request, context);
  return { clubs: choices.clubs, clubOptional: choices.clubOptional, scopes: allScopes, limits: APP_LIMITS };
}

/** What the form sent, echoed back so a page re-rendered without JavaScript keeps the user's input. */
type Echo = { name: string; description: string; redirect_uris: string; scopes: string[]; client_type: string; club: string };

export async function action({ request, context }: ActionFunctionArgs) {
  const { principal, db } = await creator(request, context);
  const values = appFormValues(await request.formData());
  const echo: Echo = {
    name: String(values.name ?? ""),
    description: String(values.description ?? ""),
    redirect_uris: String(values.redirect_uris ?? ""),
    scopes: values.scopes as string[],
    client_type: String(values.client_type ?? ""),
    club: String(values.club ?? ""),
  };
  const parsed = createAppSchema.safeParse(values);
  if (!parsed.success) return data({ created: null, errors: fieldErrorsOf(parsed.error.issues), echo }, { status: 400 });
  const result = await createApp(db, principal, context.tenant, parsed.data, context.now);
  if (!result.ok) return data({ created: null, errors: result.errors, echo }, { status: 400 });
  // The secret is in this response only; `headers` keeps it out of every cache.
  return data({ created: { ...result.app, clientSecret: result.clientSecret }, errors: {} as FieldErrors, echo: null });
}

export default function NewApplication() {
  const { clubs, clubOptional, scopes, limits } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  if (result?.created) {
    const { created } = result;
    return (
      <main className="page" style={{ maxWidth: "40rem" }}>
        <p>
          <Link to="/manage/apps">← Applications</Link>
        </p>
        <h1>Application created</h1>
        <p className="form-notice" role="status">
          {`“${created.name}” is registered as a ${created.isPublic ? "public" : "confidential"} client.`}
        </p>
        <dl>
          <dt>Client ID</dt>
          <dd className="secret" data-testid="client-id">
            {created.id}
          </dd>
          {created.clientSecret ? (
            <>
              <dt>Client secret</dt>
              <dd className="secret" data-testid="client-secret">
                {created.clientSecret}
              </dd>
            </>
          ) : null}
        </dl>
        {created.clientSecret ? (
          <p className="form-error" role="alert">
            Copy the client secret now and keep it somewhere safe. It will not be shown again: only a hash of it is stored. If you lose it, make a new one on
            the application&apos;s page.
          </p>
        ) : (
          <p>A public client has no secret: it proves itself with PKCE on every authorisation.</p>
        )}
        <p className="actions">
          <Link to={`/manage/apps/${created.id}`} className="button">
            Open the application
          </Link>
          <Link to="/manage/apps" className="button secondary">
            All applications
          </Link>
        </p>
      </main>
    );
  }
  const errors: FieldErrors = result?.errors ?? {};
  const echo = result?.echo ?? null;
  const chosenScopes = echo?.scopes ?? [];
  const clientType = echo?.client_type ?? "confidential";
  return (
    <main className="page" style={{ maxWidth: "40rem" }}>
      <p>
        <Link to="/manage/apps">← Applications</Link>
      </p>
      <h1>Create an application</h1>
      {Object.keys(errors).length > 0 ? <FormMessage error="Please correct the fields marked below." /> : null}
      {errors.form ? <FormMessage error={errors.form} /> : null}
      <Form method="post" className="stack">
        <AppNameFields name={echo?.name} description={echo?.description} limits={limits} errors={errors} />
        <RedirectUrisField max={limits.redirectUris} defaultValue={echo?.redirect_uris} error={errors.redirect_uris} />
        <ScopeChoices scopes={scopes} chosen={chosenScopes} error={errors.scopes} />
        <fieldset style={groupStyle} aria-describedby={errors.client_type ? "client_type-error" : undefined}>
          <legend style={{ fontWeight: 600 }}>Client type</legend>
          <label style={choiceStyle}>
            <input type="radio" name="client_type" value="confidential" defaultChecked={clientType === "confidential"} /> Confidential: runs on a server that
            can keep a client secret
          </label>
          <label style={choiceStyle}>
            <input type="radio" name="client_type" value="public" defaultChecked={clientType === "public"} /> Public: runs in a browser or on a phone, uses PKCE
            and has no secret
          </label>
          {errors.client_type ? (
            <span id="client_type-error" className="form-error">
              {errors.client_type}
            </span>
          ) : null}
        </fieldset>
        {clubs.length > 0 || clubOptional ? (
          <Field id="club" label="Club" hint={clubOptional ? "Leave empty for a platform application that belongs to no club." : undefined} error={errors.club}>
            {(describedBy) => (
              <select
                id="club"
                name="club"
                defaultValue={echo?.club ?? (clubOptional ? "" : clubs[0]?.id)}
                style={boxStyle}
                aria-invalid={errors.club ? true : undefined}
                aria-describedby={describedBy}
              >
                {clubOptional ? <option value="">No club</option> : null}
                {clubs.map((club) => (
                  <option key={club.id} value={club.id}>
                    {club.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
        <button type="submit" disabled={busy}>
          {busy ? "Creating…" : "Create application"}
        </button>
      </Form>
    </main>
  );
}

export const ErrorBoundary = () => <ErrorPage page {...APPS_ERRORS} />;
