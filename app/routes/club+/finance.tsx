import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import * as z from "zod";
import { formatMoneyWithSymbol } from "../../../core/money/money";
import { clubsWhereAllowed } from "../../../workers/services/club-choices";
import { bankAccountsOf, payoutsOf, requestBankAccount } from "../../../workers/services/payouts";
import { FinanceTransactions } from "../../components/finance-transactions";
import { SavedNotice, SelectField, SetupForm, TextField, useReplyFor } from "../../components/form-kit";
import { financeAction, financeNoticeOf, financePageData } from "../../finance.server";
import { parseForm, readPostedForm } from "../../forms/posted-form.server";
import { requirePrincipal } from "../../registration-admin.server";
import { ErrorPage, REGISTRATION_ADMIN_ERRORS } from "../../components/error-page";

export const meta: MetaFunction = () => [{ title: "Finance" }];

/** The clubs this user keeps the books of (Financial Admin, Organization Admin), and the one on show. */
async function financeContext(request: Request, context: Parameters<typeof requirePrincipal>[1]) {
  const access = await requirePrincipal(request, context);
  const clubs = await clubsWhereAllowed(access.db, access.principal, context.tenant, "finance", "transactions");
  if (clubs.length === 0) throw new Response("Finance needs the Financial Admin or Organization Admin role of a club on this site.", { status: 403 });
  const wanted = new URL(request.url).searchParams.get("club");
  const club = clubs.find((c) => c.id === wanted) ?? clubs[0]!;
  return { ...access, clubs, club, scope: { clubIds: [club.id] } };
}

/** Financial Admin: every transaction of the club's forms, refunds and voids, payouts and bank accounts. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { db, clubs, club, scope } = await financeContext(request, context);
  const [data, payouts, banking] = await Promise.all([financePageData(db, request, scope), payoutsOf(db, [club.id]), bankAccountsOf(db, [club.id])]);
  const search = new URL(request.url).search;
  return {
    clubs: clubs.map((c) => ({ id: c.id, name: c.name })),
    club: { id: club.id, name: club.name },
    saved:
      financeNoticeOf(request) ??
      (new URL(request.url).searchParams.get("saved") === "requested" ? "Bank account requested. A System Administrator will review it." : null),
    data,
    csvHref: `/club/finance/csv${search || `?club=${club.id}`}`,
    payouts: payouts.map((p) => ({ id: p.id, amount: p.amount, from: p.batchFromTime, to: p.batchToTime, at: p.completionTime ?? p.createdAt })),
    accounts: banking.accounts.map((a) => ({ id: a.id, name: a.displayName || a.name, kind: a.kind })),
    requests: banking.pending.map((r) => ({
      id: r.id,
      name: r.name,
      last4: r.accountLast4,
      state: r.approvedTime ? "Approved" : r.deniedTime ? "Denied" : "Waiting for review",
      at: r.createdAt,
    })),
  };
}

const requestSchema = z.object({
  name: z.string().trim().min(1, "Enter the account holder's name").max(200),
  email: z.email("Enter an email address for questions about this account"),
  kind: z.enum(["remittance", "merchant"]),
  last4: z.string().regex(/^\d{4}$/, "Enter the last four digits of the account number"),
});

export async function action({ request, context }: ActionFunctionArgs) {
  const { db, club, scope, principal } = await financeContext(request, context);
  const posted = await readPostedForm(request);
  if (posted.intent === "request-account") {
    const parsed = parseForm(requestSchema, posted);
    if (!parsed.ok) return parsed.reply;
    await requestBankAccount(
      db,
      {
        clubId: club.id,
        name: parsed.value.name,
        email: parsed.value.email,
        kind: parsed.value.kind,
        accountLast4: parsed.value.last4,
        requestedBy: principal.userId,
      },
      context.now,
    );
    return redirect(`/club/finance?club=${club.id}&saved=requested`);
  }
  return financeAction(request, context, db, scope, principal.userId, posted);
}

function dateOf(time: number | null): string {
  return time === null ? "" : new Date(time).toISOString().slice(0, 10);
}

export default function ClubFinance() {
  const { clubs, club, saved, data, csvHref, payouts, accounts, requests } = useLoaderData<typeof loader>();
  const requestReply = useReplyFor("request-account");
  return (
    <main className="page">
      <h1>{`Finance · ${club.name}`}</h1>
      {clubs.length > 1 ? (
        <Form method="get" className="filter-bar">
          <label>
            Club
            <select name="club" defaultValue={club.id}>
              {clubs.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="secondary">
            Show
          </button>
        </Form>
      ) : null}
      <SavedNotice message={saved} />
      <section aria-labelledby="transactions-heading">
        <h2 id="transactions-heading">Transactions</h2>
        <FinanceTransactions data={data} csvHref={csvHref} showForm mayAct />
      </section>
      <section aria-labelledby="payouts-heading">
        <h2 id="payouts-heading">Payouts</h2>
        {payouts.length === 0 ? (
          <p className="empty-state">
            No payouts yet. When the platform collects card payments for the club, it pays them out in batches, after fees and refunds.
          </p>
        ) : (
          <div className="table-scroll">
            <table>
              <caption className="visually-hidden">Payouts, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Paid</th>
                  <th scope="col">For payments from</th>
                  <th scope="col">to</th>
                  <th scope="col" className="num">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {payouts.map((p) => (
                  <tr key={p.id}>
                    <td>{dateOf(p.at)}</td>
                    <td>{dateOf(p.from)}</td>
                    <td>{dateOf(p.to)}</td>
                    <td className="num">{formatMoneyWithSymbol(p.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section aria-labelledby="banking-heading">
        <h2 id="banking-heading">Bank accounts</h2>
        {accounts.length === 0 ? <p className="empty-state">No approved bank account yet: payouts wait until one is approved.</p> : null}
        <ul className="plain-list">
          {accounts.map((a) => (
            <li key={a.id}>{`${a.name} (${a.kind === "merchant" ? "merchant" : "payouts"})`}</li>
          ))}
          {requests.map((r) => (
            <li key={r.id}>{`Requested ${dateOf(r.at)}: ${r.name} ····${r.last4}: ${r.state}`}</li>
          ))}
        </ul>
        <h3>Request a bank account</h3>
        <p className="hint">Only the last four digits are kept here; the platform's finance team confirms the full details with you.</p>
        <SetupForm intent="request-account" label="Request" busyLabel="Requesting…" errors={requestReply.errors}>
          <TextField
            name="name"
            label="Account holder"
            defaultValue={requestReply.values?.name ?? club.name}
            error={requestReply.errors.name}
            maxLength={200}
          />
          <TextField name="email" label="Contact email" defaultValue={requestReply.values?.email ?? ""} error={requestReply.errors.email} />
          <TextField
            name="last4"
            label="Last four digits of the account number"
            inputMode="numeric"
            defaultValue={requestReply.values?.last4 ?? ""}
            error={requestReply.errors.last4}
            maxLength={4}
          />
          <SelectField
            name="kind"
            label="Used for"
            choices={[
              { value: "remittance", label: "Payouts to the club" },
              { value: "merchant", label: "The club's own merchant account" },
            ]}
            defaultValue={requestReply.values?.kind ?? "remittance"}
          />
        </SetupForm>
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage page {...REGISTRATION_ADMIN_ERRORS} />;
}
