import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { openDb } from "../../../schema/d1";
import { readUnsubscribeLink } from "../../../workers/services/newsletter-links";
import { clubName, unsubscribe } from "../../../workers/services/newsletters";
import { ErrorPage } from "../../components/error-page";

export const meta: MetaFunction = () => [{ title: "Unsubscribe" }, { name: "robots", content: "noindex" }];

const BROKEN = "This unsubscribe link is incomplete or was changed. Use the link at the bottom of the newsletter itself.";

async function linked(request: Request, env: Env) {
  const found = await readUnsubscribeLink(env, new URL(request.url).searchParams);
  if (!found) throw new Response(BROKEN, { status: 404 });
  const club = await clubName(openDb(env.DB), found.clubId);
  if (club === null) throw new Response(BROKEN, { status: 404 });
  return { ...found, club };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { email, club } = await linked(request, context.env);
  return { email, club };
}

/** The page's button, and mail programs' one-click unsubscribe (RFC 8058: a POST to the same address). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { clubId, email, club } = await linked(request, context.env);
  await unsubscribe(openDb(context.env.DB), clubId, email, context.now);
  return { done: true, email, club };
}

export const ErrorBoundary = () => <ErrorPage page notFound={BROKEN} />;

export default function Unsubscribe() {
  const data = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  return (
    <main className="page">
      <h1>Unsubscribe</h1>
      {done ? (
        <p role="status">{`${done.email} will receive no more newsletters from ${done.club}.`}</p>
      ) : (
        <Form method="post">
          <p>{`Stop sending ${data.club}'s newsletters to ${data.email}?`}</p>
          <p className="hint">Receipts and messages about your own registrations still reach you.</p>
          <button type="submit">Unsubscribe</button>
        </Form>
      )}
    </main>
  );
}
