import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { roleHomePage, roleLabel } from "../../../core/access/roles";
import { safeGoto } from "../../../core/auth/goto";
import { authMessages } from "../../../core/auth/messages";
import { openDb } from "../../../schema/d1";
import { createAttempt, verifyAttempt } from "../../../workers/auth/attempts";
import { resolveTargetHost } from "../../../workers/auth/hosts";
import { setActiveRole } from "../../../workers/auth/sessions";
import { authDeps, handoffCookie, requireSession, rolesOf } from "../../auth.server";
import { AuthCard } from "../../components/auth-card";

export const meta: MetaFunction = () => [{ title: authMessages.switching }];

function switchParams(request: Request) {
  const url = new URL(request.url);
  return {
    role: url.searchParams.get("role"),
    goto: url.searchParams.get("goto"),
    domain: url.searchParams.get("domain"),
    user: url.searchParams.get("user"),
    pause: url.searchParams.has("pause"),
  };
}

/** Checks the switch: the signed-in user must hold the role, and the target must be one of our hosts. */
async function planSwitch(request: Request, context: LoaderFunctionArgs["context"]) {
  const session = requireSession(request, context);
  const params = switchParams(request);
  const log: string[] = [`Signed in as ${session.user.email}`];
  const held = await rolesOf(context, session.user.id);
  const role = held.find((r) => r.id === params.role) ?? null;
  if (params.user && params.user !== session.user.id) return { ok: false as const, log: [...log, "The switch is for another user"], params };
  if (!role) return { ok: false as const, log: [...log, `Role ${params.role ?? "(none)"} is not held by this user`], params };
  log.push(`Role: ${roleLabel(role.type)}`);
  const host = await resolveTargetHost(openDb(context.env.DB), context.env, context.tenant, params.domain);
  if (!host) return { ok: false as const, log: [...log, `Domain ${params.domain} is not part of this site`], params };
  log.push(`Domain: ${host}`);
  const goto = safeGoto(params.goto, [host]) ?? roleHomePage(role).href;
  log.push(`Going to: ${goto}`);
  return { ok: true as const, log, params, role, host, goto, session };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const plan = await planSwitch(request, context);
  return { ok: plan.ok, log: plan.log, pause: plan.params.pause };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const plan = await planSwitch(request, context);
  if (!plan.ok) return { error: authMessages.errorCompletingSwitch };
  if (plan.host === context.tenant.hostname) {
    await setActiveRole(openDb(context.env.DB), plan.session.id, plan.role.id);
    return redirect(plan.goto);
  }
  // Another of our hosts: a switch attempt, verified by this session, handed over with the role.
  const deps = authDeps(request, context);
  const attempt = await createAttempt(
    deps,
    { userId: plan.session.user.id, method: "switch", goto: plan.goto, domain: plan.host, roleId: plan.role.id },
    { proven: true },
  );
  if (!attempt.ok) return { error: authMessages.errorCompletingSwitch };
  const reply = await verifyAttempt(deps, attempt.attempt_id, { session: plan.session.id });
  if (reply.status !== "verified" || !reply.token) return { error: authMessages.errorCompletingSwitch };
  return redirect("/login/complete", {
    headers: { "Set-Cookie": handoffCookie({ token: reply.token, host: plan.host, goto: plan.goto, role: plan.role.id }) },
  });
}

export default function SwitchRole() {
  const { ok, log, pause } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (ok && !pause) form.current?.requestSubmit();
  }, [ok, pause]);
  return (
    <AuthCard title={authMessages.switching}>
      <ol className="details-log" aria-label="Details">
        {log.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ol>
      {ok ? (
        <Form method="post" ref={form}>
          <button type="submit" disabled={navigation.state === "submitting"}>
            {authMessages.completeSwitch}
          </button>
        </Form>
      ) : (
        <p className="form-error" role="alert">
          {authMessages.errorCompletingSwitch}
        </p>
      )}
    </AuthCard>
  );
}
