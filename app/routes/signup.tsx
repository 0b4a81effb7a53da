import { redirect, type ActionFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { authMessages } from "../../core/auth/messages";
import { signupSchema } from "../../schema/wire/auth";
import { signUp } from "../../workers/auth/signup";
import { authDeps } from "../auth.server";
import { AuthCard, FormMessage } from "../components/auth-card";
import { useHydrated } from "../hooks/use-hydrated";

export const meta: MetaFunction = () => [{ title: authMessages.createAccount }];

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = signupSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? authMessages.signupError };
  const done = await signUp(authDeps(request, context), parsed.data);
  if (!done.ok) return { error: done.status === 429 ? done.message : authMessages.signupError };
  return redirect(`/welcome?email=${encodeURIComponent(done.email)}`);
}

export default function SignUp() {
  const result = useActionData<typeof action>();
  const submitting = useNavigation().state === "submitting";
  const hydrated = useHydrated();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  // Before hydration the server checks the same rules, so the button stays usable without JavaScript.
  const ready = !hydrated || (email.includes("@") && name.trim() !== "");
  return (
    <AuthCard title={authMessages.createAccount}>
      <p>Create an administrator account for your club or race. We will email you a link to sign in.</p>
      <Form method="post" className="stack">
        <div className="field">
          <label htmlFor="email">Email address</label>
          <input id="email" name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="name">Name</label>
          <input id="name" name="name" autoComplete="name" required value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="phone">Phone (optional)</label>
          <input id="phone" name="phone" type="tel" autoComplete="tel" />
        </div>
        <FormMessage error={result?.error} />
        <button type="submit" disabled={!ready || submitting}>
          {submitting ? "Creating…" : authMessages.createAccount}
        </button>
      </Form>
      <p>
        Already have an account? <Link to="/login">Sign in</Link>
      </p>
    </AuthCard>
  );
}
