import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { GOCHIP_STATUS_LABELS } from "../../../core/gochips/chips";
import { lotsOf, openShipmentChoices, rackOf } from "../../../workers/services/gochips";
import { GOCHIP_NOTICES, issuedChipRows, rackAction } from "../../admin/gochips.server";
import { IssuedChips } from "../../components/issued-chips";
import { requireDepotAccess } from "../../admin/shipping.server";
import { readPostedForm } from "../../forms/posted-form.server";
import { SavedNotice, SelectField, SetupForm, TextAreaField, TextField, useReplyFor } from "../../components/form-kit";
import { ErrorPage, SHIPPING_ERRORS } from "../../components/error-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Rack ${data.number} · ${data.depotName}` : "Rack" }];

async function rackPage(request: Request, context: LoaderFunctionArgs["context"], params: LoaderFunctionArgs["params"]) {
  const access = await requireDepotAccess(request, context, params.depot ?? "");
  const found = await rackOf(access.db, access.target.id, params.rack ?? "");
  if (!found) throw new Response("Not found", { status: 404 });
  return { access, found };
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { access, found } = await rackPage(request, context, params);
  const [shipments, lots, issued] = await Promise.all([
    openShipmentChoices(access.db, access.target.id),
    lotsOf(access.db, access.target.id),
    issuedChipRows(access, { rackId: found.rack.id }),
  ]);
  const bySlot = new Map(found.chips.map((c) => [c.slot, c]));
  const taken = found.chips.map((c) => c.slot ?? 0);
  return {
    depotId: access.target.id,
    depotName: access.target.name,
    id: found.rack.id,
    number: found.rack.number,
    slotCount: found.rack.slotCount,
    shipmentId: found.rack.shipmentId,
    saved: GOCHIP_NOTICES[new URL(request.url).searchParams.get("saved") ?? ""] ?? null,
    may: access.may,
    slots: Array.from({ length: found.rack.slotCount }, (_, i) => {
      const chip = bySlot.get(i + 1);
      return {
        slot: i + 1,
        hexCode: chip?.hexCode ?? null,
        status: chip ? GOCHIP_STATUS_LABELS[chip.status] : null,
        failures: chip?.failures ?? 0,
        lot: chip?.lot ?? null,
      };
    }),
    firstFree: Array.from({ length: found.rack.slotCount }, (_, i) => i + 1).find((s) => !taken.includes(s)) ?? null,
    lots: lots.map((l) => ({ value: l.id, label: l.lotNumber })),
    shipments,
    issued,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { access, found } = await rackPage(request, context, params);
  return rackAction(access, found.rack.id, await readPostedForm(request));
}

export default function Rack() {
  const data = useLoaderData<typeof loader>();
  const load = useReplyFor("load");
  const ship = useReplyFor("ship");
  return (
    <main className="page">
      <p>
        <Link to={`/shipments/${data.depotId}/chips`}>← GoChips · {data.depotName}</Link>
      </p>
      <h1>Rack {data.number}</h1>
      <SavedNotice message={data.saved} />
      {data.may.edit ? (
        <SetupForm intent="ship" label="Save" busyLabel="Saving…" errors={ship.errors}>
          <SelectField
            name="shipment"
            label="Shipped with"
            choices={[{ value: "", label: "None: at the depot" }, ...data.shipments]}
            defaultValue={ship.values?.shipment ?? data.shipmentId ?? ""}
            error={ship.errors.shipment}
          />
        </SetupForm>
      ) : null}
      <h2>Slots</h2>
      <div className="table-scroll">
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Slot</th>
              <th scope="col">Hex code</th>
              <th scope="col">Status</th>
              <th scope="col">Failed tests</th>
              <th scope="col">Lot</th>
            </tr>
          </thead>
          <tbody>
            {data.slots.map((s) => (
              <tr key={s.slot}>
                <td>{s.slot}</td>
                <td>{s.hexCode ?? "Empty"}</td>
                <td>{s.status ?? ""}</td>
                <td>{s.hexCode ? s.failures : ""}</td>
                <td>{s.lot ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2 id="issued">Issued from this rack</h2>
      <IssuedChips chips={data.issued} showRack={false} />
      {data.may.edit && data.firstFree !== null ? (
        <>
          <h2>Load chips</h2>
          <SetupForm intent="load" label="Load the chips" busyLabel="Loading…" errors={load.errors}>
            <SelectField
              name="lot"
              label="Lot"
              choices={[{ value: "", label: "No lot" }, ...data.lots]}
              defaultValue={load.values?.lot}
              error={load.errors.lot}
            />
            <TextField name="from" label="From slot" inputMode="numeric" defaultValue={load.values?.from ?? data.firstFree} error={load.errors.from} />
            <TextAreaField
              name="codes"
              label="Hex codes"
              hint="One per line, in slot order, or scan them one after the other; each takes the next empty slot. A chip back from a race is no longer issued."
              defaultValue={load.values?.codes}
              error={load.errors.codes}
              rows={6}
            />
          </SetupForm>
        </>
      ) : null}
    </main>
  );
}

export const ErrorBoundary = () => <ErrorPage page {...SHIPPING_ERRORS} />;
