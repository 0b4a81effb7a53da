import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import * as z from "zod";
import { openDb } from "../../../schema/d1";
import { disconnectApp, listConnectedApps } from "../../../workers/services/connected-apps";
import { requireSession } from "../../auth.server";
import { FormMessage } from "../../components/auth-card";

export const meta: MetaFunction = () => [{ title: "Connected apps" }];

/** The apps the signed-in user has authorised to act for them, each with a way to disconnect it. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireSession(request, context);
  return { apps: await listConnectedApps(openDb(context.env.DB), session.user.id) };
}

const formSchema = z.object({ intent: z.literal("disconnect"), app_id: z.string().uuid() });

export async function action({ request, context }: ActionFunctionArgs) {
  const session = requireSession(request, context);
  const parsed = formSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return { error: "That app was not found.", notice: null };
  const done = await disconnectApp(openDb(context.env.DB), session.user.id, parsed.data.app_id, context.now);
  return done ? { error: null, notice: "The app is disconnected: it can no longer act for you." } : { error: "That app was not found.", notice: null };
}

export default function ConnectedApps() {
  const { apps } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <main className="page">
      <h1>Connected apps</h1>
      <p>
        Apps you have allowed to act for you through the data API. Disconnecting one signs it out of your account at once; it has to ask you again to come back.{" "}
        <Link to="/manage">Back to your account</Link>
      </p>
      <FormMessage error={result?.error} notice={result?.notice} />
      {apps.length === 0 ? (
        <p className="empty-state">No app can act for you.</p>
      ) : (
        <ul className="race-list">
          {apps.map((app) => (
            <li key={app.appId} className="race-card">
              <strong className="race-name">{app.name}</strong>
              <span className="race-meta">
                {app.description ? `${app.description} · ` : null}
                Allowed: {app.scopes || "nothing"} · since {new Date(app.authorisedAt).toISOString().slice(0, 10)}
              </span>
              <Form method="post">
                <input type="hidden" name="intent" value="disconnect" />
                <input type="hidden" name="app_id" value={app.appId} />
                <button type="submit" disabled={busy}>
                  Disconnect {app.name}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
