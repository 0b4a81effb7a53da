import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { desc } from "drizzle-orm";
import { capturedMail, openDb } from "../../../schema/d1";
import { formatDateTime } from "../../format";

export const meta: MetaFunction = () => [{ title: "Captured mail" }];

const PAGE_SIZE = 50;

/** Local development only: the mail the platform would have sent, so a person can read and click it. */
export async function loader({ context }: LoaderFunctionArgs) {
  if (context.env.ENVIRONMENT !== "development" || context.env.MAIL_MODE !== "capture") throw new Response("Not found", { status: 404 });
  const messages = await openDb(context.env.DB).select().from(capturedMail).orderBy(desc(capturedMail.createdAt)).limit(PAGE_SIZE);
  return { messages };
}

/** Message text with its links made clickable. */
function Linked({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/g);
  return (
    <pre>
      {parts.map((part, i) =>
        /^https?:\/\//.test(part) ? (
          <a key={i} href={part}>
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </pre>
  );
}

export default function DevMail() {
  const { messages } = useLoaderData<typeof loader>();
  return (
    <main className="page">
      <h1>Captured mail</h1>
      <p>Mail is not sent in local development; the newest {PAGE_SIZE} messages are here instead.</p>
      {messages.length === 0 ? <p className="empty-state">No mail yet.</p> : null}
      {messages.map((m) => (
        <article key={m.id} className="mail-item" aria-label={m.subject}>
          <h2>{m.subject}</h2>
          <p className="race-meta">
            To {m.to} · {formatDateTime(m.createdAt)}
          </p>
          <Linked text={m.text} />
        </article>
      ))}
    </main>
  );
}
