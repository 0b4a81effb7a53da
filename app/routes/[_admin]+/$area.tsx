import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { loadAreaList, requireAreaAdmin } from "../../admin/entity-admin.server";
import { AreaList } from "../../admin/entity-views";
import { ErrorPage } from "../../components/error-page";

/**
 * A super-admin area (spec section 2): the list of its objects, built from the entity registry. Open only to
 * System Administrators whose configuration includes the area (spec section 6), on the admin host.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const access = await requireAreaAdmin(request, context, params.area ?? "");
  return loadAreaList(request, access);
}

export const ErrorBoundary = () => (
  <ErrorPage
    page
    forbidden="This area is open to System Administrators whose configuration includes it. Ask a System Administrator to add it to your role."
    back={{ to: "/_admin", label: "Administration" }}
  />
);

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.area.label} · Administration` : "Administration" }];

export default function AdminArea() {
  const data = useLoaderData<typeof loader>();
  return (
    <main className="page">
      <p>
        <a href="/_admin">← Administration</a>
      </p>
      <h1>{data.area.label}</h1>
      <AreaList data={data} />
    </main>
  );
}
