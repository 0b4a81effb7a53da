import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireServerAccess, revokeServer, serverListData } from "../../admin/servers.server";
import { ConfirmPanel, SavedNotice, type SetupReply } from "../../components/form-kit";
import { ErrorPage, SERVER_ERRORS } from "../../components/error-page";
import { FormMessage } from "../../components/auth-card";
import { pageQuery, readPostedForm, unknownIntent } from "../../forms/posted-form.server";
import { SetupTable } from "../../components/setup-table";
import { ClubPage } from "../../components/club-page";

/** A club's timing servers (decision 0055): each box, when it was last seen, and Revoke. */
export const meta: MetaFunction = () => [{ title: "Timing servers" }];

const SUBTYPES: Record<string, string> = { webserver: "Internet Server", serverbox: "Local Server", webclient: "WebClient" };

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const access = await requireServerAccess(request, context, params.club ?? "");
  const query = pageQuery(request);
  return { clubId: access.clubId, servers: await serverListData(access), notice: query.saved, revoke: new URL(request.url).searchParams.get("revoke") };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const access = await requireServerAccess(request, context, params.club ?? "");
  const posted = await readPostedForm(request);
  if (posted.intent !== "revoke") return unknownIntent(posted);
  return revokeServer(access, posted);
}

export const ErrorBoundary = () => <ErrorPage page {...SERVER_ERRORS} />;

export default function Servers() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<SetupReply>();
  const revoking = data.servers.find((s) => s.id === data.revoke && s.isActive);
  return (
    <ClubPage clubId={data.clubId} title="Timing servers">
      <SavedNotice message={data.notice} />
      <FormMessage error={reply?.errors.form} />
      {revoking ? (
        <ConfirmPanel
          title={`Revoke ${revoking.name}?`}
          explanation={
            revoking.subtype === "webclient"
              ? `The serverbox it keys through unpairs it when the box next reports in (within a minute while the box is online): its entries are refused from then on. To use it again, pair it again with the box.`
              : "Its token stops working at once: it can no longer fetch races or send reads. To use it again, pair it again from the box."
          }
          intent="revoke"
          target={revoking.id}
          label="Revoke"
          busyLabel="Revoking…"
          cancelTo={`/club/${data.clubId}/servers`}
        />
      ) : null}
      <p>
        <Link to={`${`/club/${data.clubId}/servers`}/pair`} className="button">
          Pair a serverbox
        </Link>
      </p>
      <SetupTable
        items={data.servers}
        keyOf={(s) => s.id}
        empty="No server yet. Start pairing on the serverbox, then type the code it shows under Pair a serverbox."
        columns={[
          { header: "Name", cell: (s) => s.name },
          { header: "Type", cell: (s) => SUBTYPES[s.subtype] ?? s.subtype },
          { header: "Serial", cell: (s) => s.serial ?? "" },
          { header: "Last seen", cell: (s) => s.lastSeen },
          { header: "Version", cell: (s) => s.softwareVersion ?? "" },
          { header: "Status", cell: (s) => s.status },
        ]}
        actions={(s) =>
          s.isActive ? (
            <Link to={`?revoke=${s.id}`} aria-label={`Revoke ${s.name}`} className="danger-link">
              Revoke…
            </Link>
          ) : null
        }
      />
    </ClubPage>
  );
}
