import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useRevalidator, useSearchParams, useActionData } from "@remix-run/react";
import { browserSupportsWebAuthn } from "../../components/webauthn.client";
import { useState } from "react";
import * as z from "zod";
import { authMessages, ourAuthMessages } from "../../../core/auth/messages";
import { openDb } from "../../../schema/d1";
import { listPasskeys, removePasskey } from "../../../workers/auth/passkeys";
import { isFresh, sessionProof } from "../../../workers/auth/reauth";
import { authDeps, redirectToReauth, requireSession } from "../../auth.server";
import { AuthCard, FormMessage } from "../../components/auth-card";
import { registerPasskey, registrationProblem } from "../../components/passkey-register";
import { useHydrated } from "../../hooks/use-hydrated";
import { formatDateTime } from "../../format";
import { TableHead } from "../../components/setup-table";

export const meta: MetaFunction = () => [{ title: "Passkeys" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireSession(request, context);
  return { userId: session.user.id, passkeys: await listPasskeys(openDb(context.env.DB), session.user.id), fresh: isFresh(session, context.now) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const session = requireSession(request, context);
  const parsed = z.object({ passkey_id: z.string().min(1).max(1024) }).safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return { error: authMessages.failedToDeletePasskey, notice: null };
  const removed = await removePasskey(authDeps(request, context), sessionProof(session), parsed.data.passkey_id);
  if (!removed.ok && "reauth" in removed) redirectToReauth(request);
  return removed.ok ? { error: null, notice: "Passkey removed." } : { error: authMessages.failedToDeletePasskey, notice: null };
}

export default function ManagePasskeys() {
  const { userId, passkeys, fresh } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const confirming = params.get("remove");
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function add() {
    setError(null);
    if (!browserSupportsWebAuthn()) return setError(authMessages.passkeysNotSupportedBrowser);
    setBusy(true);
    try {
      await registerPasskey(userId);
      revalidator.revalidate();
    } catch (problem) {
      setError(registrationProblem(problem));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Passkeys">
      <FormMessage error={error ?? result?.error} notice={result?.notice} />
      {fresh ? null : <p className="hint">{ourAuthMessages.reauthRequired} You will be asked to sign in again when you add or remove a passkey.</p>}
      {passkeys.length === 0 ? (
        <p className="empty-state">No passkeys yet. Add one to sign in with your fingerprint, face or device PIN.</p>
      ) : (
        <table className="data-table">
          <TableHead headers={["Domain", "Created", "Last used"]} actions />
          <tbody>
            {passkeys.map((passkey) => (
              <tr key={passkey.id}>
                <td>{passkey.domain}</td>
                <td>{formatDateTime(passkey.created_at)}</td>
                <td>{passkey.last_used ? formatDateTime(passkey.last_used) : authMessages.never}</td>
                <td>
                  {confirming === passkey.id ? (
                    <Form method="post" replace action="/login/managePasskey" aria-label="Confirm removal">
                      <p>Remove this passkey? You will no longer be able to sign in with it.</p>
                      <input type="hidden" name="passkey_id" value={passkey.id} />
                      <button type="submit" className="danger">
                        Remove
                      </button>{" "}
                      <Link to="/login/managePasskey">Cancel</Link>
                    </Form>
                  ) : (
                    <Link to={`?remove=${encodeURIComponent(passkey.id)}`} aria-label={`Remove passkey created ${formatDateTime(passkey.created_at)}`}>
                      Remove
                    </Link>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="stack">
        <button type="button" onClick={add} disabled={!hydrated || busy} aria-busy={busy}>
          {busy ? "Waiting for your device…" : authMessages.addNewPasskey}
        </button>
        <Link to="/manage">Back to your account</Link>
      </div>
    </AuthCard>
  );
}
