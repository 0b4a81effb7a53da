import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import * as z from "zod";
import { ourAuthMessages } from "../../../core/auth/messages";
import { confirmEmailChange } from "../../../workers/auth/email-change";
import { authDeps } from "../../auth.server";
import { AuthCard, FormMessage } from "../../components/auth-card";

export const meta: MetaFunction = () => [{ title: "Confirm your new e-mail address" }];

/** The link sent to a new address opens this page; the change is made by the button's post, never by the GET a mail scanner makes. */
export async function loader({ request }: LoaderFunctionArgs) {
  return { token: new URL(request.url).searchParams.get("token") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = z.object({ token: z.string().min(1).max(200) }).safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return { error: ourAuthMessages.emailChangeInvalid, notice: null };
  const done = await confirmEmailChange(authDeps(request, context), parsed.data.token);
  return done.ok ? { error: null, notice: ourAuthMessages.emailChanged(done.email) } : { error: done.message, notice: null };
}

export default function ConfirmEmail() {
  const { token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <AuthCard title="Confirm your new e-mail address">
      <FormMessage error={result?.error ?? (token ? null : ourAuthMessages.emailChangeInvalid)} notice={result?.notice} />
      {token && !result ? (
        <Form method="post" className="stack">
          <input type="hidden" name="token" value={token} />
          <button type="submit" disabled={busy}>
            Use this e-mail address
          </button>
        </Form>
      ) : null}
      <p>
        <Link to="/manage/security">Back to your account</Link>
      </p>
    </AuthCard>
  );
}
