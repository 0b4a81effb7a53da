import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { openDb } from "../../../schema/d1";
import { acceptInvitation, invitationOfToken } from "../../../workers/services/invitations";
import { requireSession } from "../../auth.server";
import { AuthCard, FormMessage } from "../../components/auth-card";

export const meta: MetaFunction = () => [{ title: "Invitation" }];

/** Anyone with the link may read what it offers; accepting needs the account of the invited address. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const db = openDb(context.env.DB);
  const view = await invitationOfToken(db, params.token ?? "", Date.now());
  if (!view.ok) return { ok: false as const, message: view.message };
  const here = new URL(request.url).pathname;
  return {
    ok: true as const,
    invitedBy: view.invitedBy,
    label: view.label,
    what: view.targetName,
    email: view.email,
    signedInAs: context.session?.user.email ?? null,
    signIn: `/login?goto=${encodeURIComponent(here)}`,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const session = requireSession(request, context);
  const accepted = await acceptInvitation(openDb(context.env.DB), params.token ?? "", { id: session.user.id, email: session.user.email }, Date.now());
  return accepted.ok ? redirect(accepted.home) : { error: accepted.message };
}

export default function Invitation() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  if (!data.ok)
    return (
      <AuthCard title="Invitation">
        <FormMessage error={data.message} />
      </AuthCard>
    );
  const sameAccount = data.signedInAs?.toLowerCase() === data.email;
  return (
    <AuthCard title={`${data.label} of ${data.what}`}>
      <p>
        {data.invitedBy} invites <strong>{data.email}</strong> to be {data.label} of {data.what}.
      </p>
      <FormMessage error={result?.error} />
      {data.signedInAs === null ? (
        <p>
          <Link to={data.signIn}>Sign in with {data.email}</Link> to accept, or <Link to="/signup">create an account</Link> with it first.
        </p>
      ) : sameAccount ? (
        <Form method="post">
          <button type="submit" disabled={busy}>
            {busy ? "Accepting…" : "Accept the invitation"}
          </button>
        </Form>
      ) : (
        <p>
          You are signed in as {data.signedInAs}. This invitation is for {data.email}: <Link to="/login/logout">sign out</Link> and sign in with that address to
          accept it.
        </p>
      )}
    </AuthCard>
  );
}
