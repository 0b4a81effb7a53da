import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import * as z from "zod";
import { can, effectiveRoles } from "../../../core/access/policy";
import { formatMoneyWithSymbol } from "../../../core/money/money";
import { commitBatch, decideRequest, pendingRequests, previewBatch } from "../../../workers/services/payouts";
import { SavedNotice, SetupForm, useReplyFor } from "../../components/form-kit";
import { parseForm, readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import { requirePrincipal } from "../../registration-admin.server";
import { loadAreaList, requireAreaAdmin } from "../../admin/entity-admin.server";
import { AreaList } from "../../admin/entity-views";
import { ErrorPage, REGISTRATION_ADMIN_ERRORS } from "../../components/error-page";

export const meta: MetaFunction = () => [{ title: "Bank Accounts · Administration" }];

const DAY_MS = 86_400_000;

/** System Administrators with the bankaccounts flag, on the admin host only. */
async function requireBankAdmin(request: Request, context: Parameters<typeof requirePrincipal>[1]) {
  if (context.tenant.kind !== "admin") throw new Response("Not found", { status: 404 });
  const access = await requirePrincipal(request, context);
  const isSuperAdmin = effectiveRoles(access.principal).some((role) => role.type === "system_admin");
  if (!isSuperAdmin || !can(access.principal, "administer", { area: "bankaccounts" })) throw new Response("Forbidden", { status: 403 });
  return access;
}

const windowSchema = z.object({ from: z.iso.date("Choose the first day"), to: z.iso.date("Choose the last day") });

/** A batch covers whole UTC days, from the first day's start to the day after the last. */
function windowOf(from: string, to: string): { from: number; to: number } {
  return { from: Date.parse(`${from}T00:00:00Z`), to: Date.parse(`${to}T00:00:00Z`) + DAY_MS };
}

const NOTICES: Record<string, string> = { approved: "Bank account approved.", denied: "Request denied.", paid: "Payout batch written." };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { db } = await requireBankAdmin(request, context);
  const url = new URL(request.url);
  const window = windowSchema.safeParse({ from: url.searchParams.get("from") ?? "", to: url.searchParams.get("to") ?? "" });
  const preview = window.success
    ? await previewBatch(db, windowOf(window.data.from, window.data.to).from, windowOf(window.data.from, window.data.to).to)
    : null;
  return {
    list: await loadAreaList(request, await requireAreaAdmin(request, context, "bankaccounts")),
    saved: NOTICES[url.searchParams.get("saved") ?? ""] ?? null,
    requests: (await pendingRequests(db)).map(({ request: r, clubName }) => ({
      id: r.id,
      clubName,
      name: r.name,
      email: r.email,
      kind: r.kind,
      last4: r.accountLast4,
      at: r.createdAt,
    })),
    window: window.success ? window.data : null,
    preview:
      preview?.map((line) => ({
        clubId: line.clubId,
        clubName: line.clubName,
        bankAccount: line.bankAccount,
        payments: line.payments,
        refunds: line.refunds,
        fees: line.fees,
        division: line.division,
        owed: line.owed,
        count: line.transactionIds.length,
      })) ?? null,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { db, principal } = await requireBankAdmin(request, context);
  const posted = await readPostedForm(request);
  if (posted.intent === "approve" || posted.intent === "deny") {
    const done = await decideRequest(context.env, db, posted.target ?? "", posted.intent, principal.userId, context.now);
    return done.ok ? redirect(`/_admin/bankaccounts?saved=${posted.intent === "approve" ? "approved" : "denied"}`) : refuse(posted, { form: done.error }, 409);
  }
  if (posted.intent === "pay-batch") {
    const parsed = parseForm(windowSchema, posted);
    if (!parsed.ok) return parsed.reply;
    const window = windowOf(parsed.value.from, parsed.value.to);
    const done = await commitBatch(db, window.from, window.to, principal.userId, context.now);
    return done.ok ? redirect("/_admin/bankaccounts?saved=paid") : refuse(posted, { form: done.error }, 409);
  }
  return unknownIntent(posted);
}

function RequestRow({ request }: { request: { id: string; clubName: string; name: string; email: string; kind: string; last4: string; at: number } }) {
  const approve = useReplyFor("approve", request.id);
  const deny = useReplyFor("deny", request.id);
  const [search] = useSearchParams();
  const denying = search.get("deny") === request.id;
  return (
    <li className="request-row">
      <p>{`${request.clubName}: ${request.name} ····${request.last4} (${request.kind === "merchant" ? "merchant account" : "payouts"}), asked ${new Date(request.at).toISOString().slice(0, 10)} by ${request.email}`}</p>
      <SetupForm intent="approve" target={request.id} label={`Approve ${request.name}`} busyLabel="Approving…" errors={approve.errors} inline />
      {denying ? (
        <SetupForm intent="deny" target={request.id} label={`Deny ${request.name} for good`} busyLabel="Denying…" errors={deny.errors} danger inline />
      ) : (
        <Link to={`?deny=${request.id}`} className="danger-link">
          Deny…
        </Link>
      )}
    </li>
  );
}

export default function BankAccountsAdmin() {
  const { saved, requests, window, preview, list } = useLoaderData<typeof loader>();
  const batchReply = useReplyFor("pay-batch");
  const total = preview?.filter((l) => l.owed > 0 && l.bankAccount).reduce((sum, l) => sum + l.owed, 0) ?? 0;
  return (
    <main className="page">
      <p>
        <a href="/">← Administration</a>
      </p>
      <h1>Bank Accounts</h1>
      <SavedNotice message={saved} />
      <section aria-labelledby="requests-heading">
        <h2 id="requests-heading">Requests waiting for review</h2>
        {requests.length === 0 ? <p className="empty-state">No requests waiting.</p> : null}
        <ul className="plain-list">
          {requests.map((r) => (
            <RequestRow key={r.id} request={r} />
          ))}
        </ul>
      </section>
      <section aria-labelledby="batch-heading">
        <h2 id="batch-heading">Payout batch</h2>
        <p className="hint">
          Card payments the platform collected for merchant clubs, less system fees and refunds, for whole days (UTC). A club without an approved bank account,
          or owed nothing, is carried to the next batch.
        </p>
        <Form method="get" className="filter-bar">
          <label>
            First day
            <input type="date" name="from" defaultValue={window?.from ?? ""} required />
          </label>
          <label>
            Last day
            <input type="date" name="to" defaultValue={window?.to ?? ""} required />
          </label>
          <button type="submit" className="secondary">
            Preview
          </button>
        </Form>
        {preview && preview.length === 0 ? <p className="empty-state">Nothing to pay out for those days.</p> : null}
        {preview && preview.length > 0 ? (
          <>
            <div className="table-scroll">
              <table>
                <caption className="visually-hidden">What each club is owed</caption>
                <thead>
                  <tr>
                    <th scope="col">Club</th>
                    <th scope="col">Bank account</th>
                    <th scope="col" className="num">
                      Payments
                    </th>
                    <th scope="col" className="num">
                      Refunds
                    </th>
                    <th scope="col" className="num">
                      Fees
                    </th>
                    <th scope="col" className="num">
                      Owed
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {preview.map((line) => (
                    <tr key={line.clubId}>
                      <th scope="row">{line.clubName}</th>
                      <td>{line.bankAccount ?? "None approved: carried over"}</td>
                      <td className="num">{formatMoneyWithSymbol(line.payments)}</td>
                      <td className="num">{formatMoneyWithSymbol(line.refunds)}</td>
                      <td className="num">{formatMoneyWithSymbol(line.fees + line.division)}</td>
                      <td className="num">{formatMoneyWithSymbol(line.owed)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {window && total > 0 ? (
              <SetupForm intent="pay-batch" label={`Write payouts of ${formatMoneyWithSymbol(total)}`} busyLabel="Writing…" errors={batchReply.errors} danger>
                <input type="hidden" name="from" value={window.from} />
                <input type="hidden" name="to" value={window.to} />
              </SetupForm>
            ) : null}
          </>
        ) : null}
      </section>
      <AreaList data={list} />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage page {...REGISTRATION_ADMIN_ERRORS} />;
}
