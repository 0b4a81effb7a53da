import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { openDb } from "../../../schema/d1";
import { clearCookie, cookieNames } from "../../../workers/auth/cookies";
import { deleteSession } from "../../../workers/auth/sessions";
import { AuthCard } from "../../components/auth-card";

export const meta: MetaFunction = () => [{ title: "Sign out" }];

export async function loader({ context }: LoaderFunctionArgs) {
  if (!context.session) throw redirect("/login");
  return null;
}

/** Signing out is a post (a link from another site must not sign anyone out); the page submits it itself. */
export async function action({ context }: ActionFunctionArgs) {
  if (context.session) await deleteSession(openDb(context.env.DB), context.session.id);
  return redirect("/login", { headers: { "Set-Cookie": clearCookie(cookieNames.session) } });
}

export default function Logout() {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => form.current?.requestSubmit(), []);
  return (
    <AuthCard title="Signing out…">
      <Form method="post" ref={form}>
        <button type="submit">Sign out</button>
      </Form>
    </AuthCard>
  );
}
