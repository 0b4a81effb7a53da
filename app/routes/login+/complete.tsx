import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { authMessages } from "../../../core/auth/messages";
import { originOf } from "../../../workers/auth/hosts";
import { claimHere, readHandoff } from "../../auth.server";
import { AuthCard } from "../../components/auth-card";

export const meta: MetaFunction = () => [{ title: "Signing in" }];

/**
 * The last step of every sign-in: on this host the session is claimed at once; for another of our hosts
 * the token is posted to that host's /_auth/login (automatically, or with the button before hydration).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const handoff = readHandoff(request);
  if (!handoff) throw redirect("/login");
  if (handoff.host === context.tenant.hostname) {
    const done = await claimHere(context, handoff, request.headers.get("User-Agent"));
    if (done) return done;
    return { error: authMessages.failedToCompleteLogin, action: null, handoff: null };
  }
  return { error: null, action: `${originOf(context.env, handoff.host)}/_auth/login`, handoff };
}

export default function CompleteSignIn() {
  const { error, action, handoff } = useLoaderData<typeof loader>();
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.submit();
  }, []);
  if (error || !action || !handoff) {
    return (
      <AuthCard title="Sign in">
        <p className="form-error" role="alert">
          {error}
        </p>
        <a href="/login">Back to sign in</a>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Signing you in…">
      <form ref={form} method="post" action={action}>
        <input type="hidden" name="token" value={handoff.token} />
        <input type="hidden" name="goto" value={handoff.goto ?? ""} />
        <input type="hidden" name="role" value={handoff.role ?? ""} />
        <p>Taking you to {handoff.host}.</p>
        <button type="submit">Continue</button>
      </form>
    </AuthCard>
  );
}
