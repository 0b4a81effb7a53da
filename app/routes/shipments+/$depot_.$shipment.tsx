import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { SHIPMENT_STATE_LABELS } from "../../../core/shipping/shipments";
import { shipmentDetail } from "../../../workers/services/shipments";
import { requireDepotAccess, shipmentAction, SHIPPING_NOTICES } from "../../admin/shipping.server";
import { readPostedForm } from "../../forms/posted-form.server";
import { RowButton, SavedNotice, SelectField, SetupForm, TextField, useReplyFor } from "../../components/form-kit";
import { ErrorPage, SHIPPING_ERRORS } from "../../components/error-page";
import { PackingList } from "../../components/packing-list";
import { IssuedChips } from "../../components/issued-chips";
import { issuedChipRows } from "../../admin/gochips.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Shipment to ${data.shipment.destination}` : "Shipment" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const access = await requireDepotAccess(request, context, params.depot ?? "");
  const detail = await shipmentDetail(access.db, access.target.id, params.shipment ?? "");
  if (!detail) throw new Response("Not found", { status: 404 });
  const out = detail.shipment.state === "shipped" || detail.shipment.state === "returned" || detail.shipment.state === "closed";
  return {
    // The GoChips its racks left at the race, for the staff to check in (decision 0077).
    chips: out ? await issuedChipRows(access, { shipmentId: detail.shipment.id }) : [],
    ...detail,
    depot: { id: access.target.id, name: access.target.name },
    state: detail.shipment.state,
    stateLabel: SHIPMENT_STATE_LABELS[detail.shipment.state],
    may: access.may,
    saved: SHIPPING_NOTICES[new URL(request.url).searchParams.get("saved") ?? ""] ?? null,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const access = await requireDepotAccess(request, context, params.depot ?? "");
  return shipmentAction(access, params.shipment ?? "", await readPostedForm(request), context.now);
}

function StepButton({ intent, label, busy, danger }: { intent: string; label: string; busy: string; danger?: boolean }) {
  const reply = useReplyFor(intent);
  return <SetupForm intent={intent} label={label} busyLabel={busy} errors={reply.errors} danger={danger} />;
}

function CountsForm({ typeId }: { typeId: string }) {
  const reply = useReplyFor("counts", typeId);
  return (
    <SetupForm intent="counts" target={typeId} label="Record the return" busyLabel="Saving…" errors={reply.errors}>
      <input type="hidden" name="type" value={typeId} />
      <TextField id={`back-${typeId}`} name="back" label="Back" inputMode="numeric" defaultValue={reply.values?.back} error={reply.errors.back} />
      <TextField
        id={`missing-${typeId}`}
        name="missing"
        label="Missing"
        inputMode="numeric"
        defaultValue={reply.values?.missing}
        error={reply.errors.missing}
      />
    </SetupForm>
  );
}

export default function Shipment() {
  const data = useLoaderData<typeof loader>();
  const s = data.shipment;
  const request = useReplyFor("request");
  const pack = useReplyFor("pack");
  const draft = data.state === "draft";
  const base = `/shipments/${data.depot.id}/${s.id}`;
  return (
    <main className="page">
      <p>
        <Link to={`/shipments/${data.depot.id}`}>← Shipments · {data.depot.name}</Link>
      </p>
      <h1>Shipment to {s.destination}</h1>
      <SavedNotice message={data.saved} />
      <p>
        <strong>Status:</strong> {data.stateLabel}
        {s.shipBy ? ` · ship by ${s.shipBy}` : ""}
        {s.returnBy ? ` · return by ${s.returnBy}` : ""}
      </p>
      {s.contactName || s.contactEmail || s.contactPhone ? <p>Contact: {[s.contactName, s.contactEmail, s.contactPhone].filter(Boolean).join(" · ")}</p> : null}
      {s.address ? <p style={{ whiteSpace: "pre-line" }}>{s.address}</p> : null}
      <p>
        <Link to={`${base}/slip`}>Packing slip (printable)</Link>
      </p>
      <h2>Asked for</h2>
      {data.request.length === 0 ? (
        <p className="empty-state">Nothing yet: add what the destination needs below.</p>
      ) : (
        <ul className="plain-list">
          {data.request.map((r) => (
            <li key={r.typeId}>
              {r.quantity} × {r.name}{" "}
              {draft && data.may.edit ? (
                <RowButton intent="request" target={r.typeId} extra={{ type: r.typeId, quantity: "0" }} label="Remove" accessibleLabel={`Remove ${r.name}`} />
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {draft && data.may.edit ? (
        <SetupForm intent="request" label="Set" busyLabel="Saving…" errors={request.errors}>
          <SelectField
            name="type"
            label="Type"
            choices={[{ value: "", label: "Choose…" }, ...data.types.map((t) => ({ value: t.id, label: t.name }))]}
            defaultValue={request.values?.type}
            error={request.errors.type}
          />
          <TextField name="quantity" label="How many" inputMode="numeric" defaultValue={request.values?.quantity} error={request.errors.quantity} />
        </SetupForm>
      ) : null}
      <h2>Packing list</h2>
      {data.packing.ok ? <PackingList groups={data.packing.groups} /> : <p className="form-error">{data.packing.error}</p>}
      {data.short.map((text) => (
        <p key={text} className="form-error">
          {text}
        </p>
      ))}
      <h2 id="pack">Packed items</h2>
      {data.progress.length > 0 ? (
        <ul className="plain-list">
          {data.progress.map((p) => (
            <li key={p.key}>
              {p.name}: {p.packed} of {p.needed} packed
            </li>
          ))}
        </ul>
      ) : null}
      {data.items.length > 0 ? (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Number</th>
                <th scope="col">Type</th>
                <th scope="col">State</th>
                <th scope="col"></th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((i) => (
                <tr key={i.itemId}>
                  <td>{i.number}</td>
                  <td>{i.type}</td>
                  <td>{i.state}</td>
                  <td>
                    {draft && i.state === "packed" && data.may.edit ? (
                      <RowButton intent="unpack" target={i.itemId} label="Unpack" accessibleLabel={`Unpack ${i.number}`} />
                    ) : null}
                    {i.state === "out" && data.may.edit ? (
                      <>
                        <RowButton intent="back" target={i.itemId} label="Back" accessibleLabel={`${i.number} back`} />{" "}
                        <RowButton intent="missing" target={i.itemId} label="Missing" accessibleLabel={`${i.number} missing`} />
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {draft && data.may.edit ? (
        <SetupForm intent="pack" label="Pack" busyLabel="Packing…" errors={pack.errors}>
          <TextField name="number" label="Item number" hint="Scan or type the number on the item." error={pack.errors.number} />
        </SetupForm>
      ) : null}
      {data.counts.some((c) => c.isRentable) ? (
        <>
          <h2>Counted lines</h2>
          <ul className="plain-list">
            {data.counts
              .filter((c) => c.isRentable)
              .map((c) => (
                <li key={c.typeId}>
                  {c.type}: {c.sent} sent
                  {c.back === null ? " · still out" : ` · ${c.back} back, ${c.missing} missing`}
                  {c.back === null && data.state === "shipped" && data.may.edit ? <CountsForm typeId={c.typeId} /> : null}
                </li>
              ))}
          </ul>
        </>
      ) : null}
      {data.chips.length > 0 ? (
        <>
          <h2 id="chips">GoChips issued at the race</h2>
          <p>
            Chips its racks gave racers, not back in a rack yet: check each in on the <Link to={`/shipments/${data.depot.id}/chips#returns`}>GoChips page</Link>
            .
          </p>
          <IssuedChips chips={data.chips} showRack />
        </>
      ) : null}
      {data.may.edit ? (
        <>
          <h2>Next step</h2>
          {draft ? <StepButton intent="packed" label="Mark packed" busy="Saving…" /> : null}
          {data.state === "packed" ? (
            <>
              <StepButton intent="ship" label="Ship" busy="Shipping…" />
              <StepButton intent="reopen" label="Back to packing" busy="Saving…" />
            </>
          ) : null}
          {data.state === "shipped" || data.state === "returned" ? (
            <>
              {data.stillOut > 0 ? <p className="hint">{`${data.stillOut} rented still out: mark each back or missing above.`}</p> : null}
              {data.state === "shipped" && data.stillOut === 0 ? <StepButton intent="returned" label="Mark returned" busy="Saving…" /> : null}
              <StepButton intent="close" label="Close the shipment" busy="Closing…" />
            </>
          ) : null}
        </>
      ) : null}
      {(draft || data.state === "packed") && data.may.remove ? <StepButton intent="delete" label="Delete the shipment" busy="Deleting…" danger /> : null}
    </main>
  );
}

export const ErrorBoundary = () => <ErrorPage page {...SHIPPING_ERRORS} />;
