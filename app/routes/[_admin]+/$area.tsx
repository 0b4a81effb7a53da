import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { findAdminArea } from "../../../core/access/admin-areas";

/** An area of the super-admin host. Its tools arrive with their issues; the page says what it is and who may use it. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const area = context.tenant.kind === "admin" ? findAdminArea(params.area ?? "") : null;
  if (!area) throw new Response("Not found", { status: 404 });
  return { key: area.key, label: area.label };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.label} · Administration` : "Administration" }];

export default function AdminArea() {
  const area = useLoaderData<typeof loader>();
  return (
    <main className="page">
      <p>
        <a href="/">← Administration</a>
      </p>
      <h1>{area.label}</h1>
      <p>
        Open to System Administrators whose configuration includes <code>{area.key}</code>. Sign in to continue.
      </p>
    </main>
  );
}
