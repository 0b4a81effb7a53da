import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { authMessages } from "../../../core/auth/messages";
import { openDb } from "../../../schema/d1";
import { consentInfo, type ScopeView } from "../../../workers/data-api/consent";
import { approve, authorizeParamsFrom, checkAuthorizeRequest } from "../../../workers/data-api/oauth";
import { principalOf } from "../../../workers/services/race-access";
import { AuthCard } from "../../components/auth-card";

export const meta: MetaFunction = () => [{ title: "Authorize application" }];

/**
 * The consent page of an app authorisation. Signed out: the app and a Login button that comes back here.
 * Signed in: what the app asks, what was approved before, and 'Authorize'. A system app is approved at once.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const db = openDb(context.env.DB);
  const check = await checkAuthorizeRequest(db, context.tenant, authorizeParamsFrom(url.searchParams));
  if (!check.ok && check.kind === "redirect") throw redirect(check.location);
  if (!check.ok) return { error: check.message, signedIn: false, info: null, appName: null };
  if (!context.session) return { error: null, signedIn: false, info: null, appName: check.app.name };
  if (check.app.isSystem) throw redirect((await approve(db, context.tenant, context.session.user.id, check, context.now)).location);
  const principal = await principalOf(db, context.session);
  if (!principal) return { error: null, signedIn: false, info: null, appName: check.app.name };
  return { error: null, signedIn: true, info: await consentInfo(db, context.tenant, principal, check), appName: check.app.name };
}

const scopeLabels: Record<string, string> = {
  registrations: "Registration forms and registrants",
  races: "Races, racers and results",
  timingdevices: "Timing devices",
  pointsseries: "Points series",
  carts: "Carts and payments",
  reports: "Reports",
  transactions: "Transactions",
};

function ScopeList({ scopes }: { scopes: ScopeView[] }) {
  return (
    <ul>
      {scopes.map((s) => (
        <li key={s.type}>
          <strong>{scopeLabels[s.type] ?? s.type}</strong>
          {s.any_item ? " (all you can access)" : `: ${s.items.map((i) => i.item_name).join(", ")}`}
        </li>
      ))}
    </ul>
  );
}

export default function AuthorizeApp() {
  const { error, signedIn, info, appName } = useLoaderData<typeof loader>();
  const location = useLocation();
  const busy = useNavigation().state !== "idle";
  if (error) {
    return (
      <AuthCard title={authMessages.authorizationError}>
        <p className="form-error" role="alert">
          {error}
        </p>
      </AuthCard>
    );
  }
  if (!signedIn || !info) {
    return (
      <AuthCard title={`Authorize ${appName}`}>
        <p>Sign in to let {appName} act for you.</p>
        <a className="button" href={`/login?goto=${encodeURIComponent(location.pathname + location.search)}`}>
          Login
        </a>
      </AuthCard>
    );
  }
  const asksNothing = info.new_scopes.length === 0 && info.granted_scopes.length === 0;
  return (
    <AuthCard title={`Authorize ${info.app_name}`}>
      {info.app_description ? <p>{info.app_description}</p> : null}
      {info.illegal_requests.length > 0 ? (
        <p className="form-error" role="alert">
          This application asked for permissions it may not have: {info.illegal_requests.join(", ")}. They will not be given.
        </p>
      ) : null}
      {info.new_scopes.length > 0 ? (
        <section aria-labelledby="requested-heading">
          <h2 id="requested-heading">It asks to use</h2>
          <ScopeList scopes={info.new_scopes} />
        </section>
      ) : null}
      {info.granted_scopes.length > 0 ? (
        <section aria-labelledby="granted-heading">
          <h2 id="granted-heading">Already approved</h2>
          <ScopeList scopes={info.granted_scopes} />
        </section>
      ) : null}
      {asksNothing ? <p className="empty-state">This application asks for no permissions: it will only know who you are.</p> : null}
      <Form method="post" action="/_auth/app" reloadDocument className="stack">
        {[...new URLSearchParams(location.search).entries()].map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" name="approve" value="yes" disabled={busy}>
          Authorize
        </button>
        <button type="submit" name="approve" value="no" className="button secondary">
          Deny
        </button>
      </Form>
    </AuthCard>
  );
}
