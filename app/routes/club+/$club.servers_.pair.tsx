import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { decidePairing, pairingPageData, requireServerAccess } from "../../admin/servers.server";
import { SelectField, TextField, useReplyFor } from "../../components/form-kit";
import { FormMessage } from "../../components/auth-card";
import { ErrorPage, SERVER_ERRORS } from "../../components/error-page";
import { readPostedForm, unknownIntent } from "../../forms/posted-form.server";

/** Pairing a serverbox by the code it shows (decision 0055): type the code, see the box, approve or cancel. */
export const meta: MetaFunction = () => [{ title: "Pair a serverbox" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const access = await requireServerAccess(request, context, params.club ?? "");
  return pairingPageData(access, new URL(request.url));
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const access = await requireServerAccess(request, context, params.club ?? "");
  const posted = await readPostedForm(request);
  if (posted.intent !== "approve" && posted.intent !== "cancel") return unknownIntent(posted);
  return decidePairing(access, posted);
}

export const ErrorBoundary = () => <ErrorPage page {...SERVER_ERRORS} />;

export default function PairServer() {
  const data = useLoaderData<typeof loader>();
  const approve = useReplyFor("approve");
  const cancel = useReplyFor("cancel");
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const request = data.request;
  return (
    <main className="page" style={{ maxWidth: "40rem" }}>
      <p>
        <Link to={`/club/${data.clubId}/servers`}>← Timing servers</Link>
      </p>
      <h1>Pair a serverbox</h1>
      {request ? (
        <section aria-labelledby="request-heading">
          <h2 id="request-heading">Serverbox {request.name}</h2>
          <dl className="facts">
            <dt>Code</dt>
            <dd>{data.code}</dd>
            <dt>Serial</dt>
            <dd>{request.serial}</dd>
            {request.softwareVersion ? (
              <>
                <dt>Software version</dt>
                <dd>{request.softwareVersion}</dd>
              </>
            ) : null}
            <dt>Asked</dt>
            <dd>{request.requested}</dd>
          </dl>
          <p>Approve only a box you can see in front of you, showing this code: once approved it may time your club's races.</p>
          <FormMessage error={approve.errors.form ?? cancel.errors.form} />
          <Form method="post" className="setup-form">
            <input type="hidden" name="request" value={request.id} />
            <SelectField name="club" label="Club" choices={data.clubs} defaultValue={approve.values?.club ?? data.clubId} error={approve.errors.club} />
            <div className="actions">
              <button type="submit" name="intent" value="approve" disabled={busy === "approve"}>
                {busy === "approve" ? "Approving…" : "Approve"}
              </button>
              <button type="submit" name="intent" value="cancel" className="secondary" disabled={busy === "cancel"}>
                {busy === "cancel" ? "Cancelling…" : "Cancel pairing"}
              </button>
            </div>
          </Form>
        </section>
      ) : (
        <Form method="get" className="setup-form">
          <p>Start pairing on the serverbox: it shows a code of eight letters. Type it here within 10 minutes.</p>
          <TextField name="code" label="Code" defaultValue={data.code} placeholder="BCDF-GHJK" required maxLength={20} error={data.codeError ?? undefined} />
          <button type="submit">Find the serverbox</button>
        </Form>
      )}
    </main>
  );
}
