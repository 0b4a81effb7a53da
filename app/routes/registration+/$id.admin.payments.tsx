import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { FinanceTransactions } from "../../components/finance-transactions";
import { SavedNotice } from "../../components/form-kit";
import { financeAction, financeNoticeOf, financePageData } from "../../finance.server";
import { readPostedForm } from "../../forms/posted-form.server";
import { requireRegistrationAccess } from "../../registration-admin.server";

export const meta: MetaFunction = () => [{ title: "Payments" }];

/** Registration Form finance: this form's payments, refunds and fees; record cheques received, refund, void. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { registration, builder } = await requireRegistrationAccess(request, context, params.id, "finance");
  const scope = { clubIds: [registration.clubId], registrationId: registration.id };
  const search = new URL(request.url).search;
  return {
    id: registration.id,
    saved: financeNoticeOf(request),
    data: await financePageData(builder.db, request, scope),
    csvHref: `/registration/${registration.id}/admin/payments/csv${search}`,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { registration, builder, principal } = await requireRegistrationAccess(request, context, params.id, "finance");
  return financeAction(
    request,
    context,
    builder.db,
    { clubIds: [registration.clubId], registrationId: registration.id },
    principal.userId,
    await readPostedForm(request),
  );
}

export default function RegistrationPayments() {
  const { saved, data, csvHref } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="payments-heading">
      <h2 id="payments-heading">Payments</h2>
      <SavedNotice message={saved} />
      <FinanceTransactions data={data} csvHref={csvHref} showForm={false} mayAct />
    </section>
  );
}
