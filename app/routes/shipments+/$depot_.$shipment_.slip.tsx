import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { SHIPMENT_STATE_LABELS } from "../../../core/shipping/shipments";
import { shipmentDetail } from "../../../workers/services/shipments";
import { requireDepotAccess } from "../../admin/shipping.server";
import { ErrorPage, SHIPPING_ERRORS } from "../../components/error-page";
import { PackingList } from "../../components/packing-list";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Packing slip · ${data.destination}` : "Packing slip" }];

/** The packing slip to print and put in the box: where it goes, what is in it by box, and each numbered item. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const access = await requireDepotAccess(request, context, params.depot ?? "");
  const detail = await shipmentDetail(access.db, access.target.id, params.shipment ?? "");
  if (!detail) throw new Response("Not found", { status: 404 });
  const s = detail.shipment;
  return {
    depot: access.target.name,
    destination: s.destination,
    address: s.address,
    contact: [s.contactName, s.contactEmail, s.contactPhone].filter(Boolean).join(" · "),
    dates: { shipBy: s.shipBy, useFrom: s.useFrom, returnBy: s.returnBy },
    state: SHIPMENT_STATE_LABELS[s.state],
    packing: detail.packing,
    items: detail.items.filter((i) => i.state !== "back" && i.state !== "missing").map((i) => ({ number: i.number, type: i.type })),
    notes: s.notes,
  };
}

export default function PackingSlip() {
  const data = useLoaderData<typeof loader>();
  return (
    <main className="page packing-slip">
      <h1>Packing slip</h1>
      <p>
        From <strong>{data.depot}</strong> to <strong>{data.destination}</strong> ({data.state})
      </p>
      {data.address ? <p style={{ whiteSpace: "pre-line" }}>{data.address}</p> : null}
      {data.contact ? <p>Contact: {data.contact}</p> : null}
      <p>
        {data.dates.shipBy ? `Ship by ${data.dates.shipBy}. ` : ""}
        {data.dates.useFrom ? `In use from ${data.dates.useFrom}. ` : ""}
        {data.dates.returnBy ? `Return by ${data.dates.returnBy}.` : ""}
      </p>
      {data.packing.ok ? <PackingList groups={data.packing.groups} /> : <p className="form-error">{data.packing.error}</p>}
      {data.items.length > 0 ? (
        <>
          <h2>Numbered items</h2>
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Number</th>
                <th scope="col">Type</th>
                <th scope="col">Checked</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((i) => (
                <tr key={i.number}>
                  <td>{i.number}</td>
                  <td>{i.type}</td>
                  <td>☐</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      {data.notes ? <p style={{ whiteSpace: "pre-line" }}>{data.notes}</p> : null}
    </main>
  );
}

export const ErrorBoundary = () => <ErrorPage page {...SHIPPING_ERRORS} />;
