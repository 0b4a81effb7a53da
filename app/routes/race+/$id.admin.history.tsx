import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { openDb } from "../../../schema/d1";
import { HistoryTable } from "../../admin/entity-views";
import { ErrorPage, RACE_SETUP_ERRORS } from "../../components/error-page";
import { requireRaceAccess } from "../../race-admin.server";
import { setupHistoryRows } from "../../race-history.server";

export const meta: MetaFunction = () => [{ title: "Setup history" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { room } = await requireRaceAccess(request, context, params.id, "view");
  const entries = await room.setupHistory();
  return { rows: await setupHistoryRows(openDb(context.env.DB), entries) };
}

export const ErrorBoundary = () => <ErrorPage {...RACE_SETUP_ERRORS} />;

export default function SetupHistoryPage() {
  const { rows } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">Setup history</h2>
      <p className="hint">
        Every change to the race's timing settings, courses, timing points, devices, start groups and result formats: who made it, when, and what each field was
        before and after. The newest 200 are shown.
      </p>
      <HistoryTable rows={rows} empty="No setup changes recorded yet. Changes made on these pages from now on appear here." />
    </section>
  );
}
