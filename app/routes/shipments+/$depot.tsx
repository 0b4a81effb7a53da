import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { SHIPMENT_STATE_LABELS } from "../../../core/shipping/shipments";
import { catalogue, missingItems, stockOf } from "../../../workers/services/depot-stock";
import { destinationChoices, shipmentsOf } from "../../../workers/services/shipments";
import { depotAction, requireDepotAccess, SHIPPING_NOTICES } from "../../admin/shipping.server";
import { peopleAction, peopleData } from "../../admin/people.server";
import { readPostedForm, unknownIntent } from "../../forms/posted-form.server";
import { RowButton, SavedNotice, SelectField, SetupForm, TextAreaField, TextField, useReplyFor } from "../../components/form-kit";
import { PeoplePanel } from "../../components/people-panel";
import { ErrorPage, SHIPPING_ERRORS } from "../../components/error-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Shipments · ${data.name}` : "Shipments" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const access = await requireDepotAccess(request, context, params.depot ?? "");
  const { db, target, mayGrant } = access;
  const [stock, missing, list, types, destinations] = await Promise.all([
    stockOf(db, target.id),
    missingItems(db, target.id),
    shipmentsOf(db, target.id),
    catalogue(db),
    destinationChoices(db, context.now),
  ]);
  return {
    id: target.id,
    name: target.name,
    saved: SHIPPING_NOTICES[new URL(request.url).searchParams.get("saved") ?? ""] ?? null,
    may: access.may,
    stock,
    missing,
    shipments: list.map((s) => ({ ...s, state: SHIPMENT_STATE_LABELS[s.state] })),
    types: types.filter((t) => t.isActive).map((t) => ({ value: t.id, label: `${t.name}${t.isTracked ? " (numbered)" : ""}` })),
    destinations,
    // One id per opened form: sent twice (a double click), it receives or creates once.
    receipt: crypto.randomUUID(),
    submission: crypto.randomUUID(),
    people: mayGrant ? await peopleData(db, target, request, context.now) : null,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const access = await requireDepotAccess(request, context, params.depot ?? "");
  const posted = await readPostedForm(request);
  const own = await depotAction(access, posted, context.now);
  if (own) return own;
  if (["invite", "withdraw", "revoke"].includes(posted.intent)) {
    return (
      (await peopleAction(context.env, access.db, access.principal, access.user, access.target, posted, `/shipments/${access.target.id}`, context.now)) ??
      unknownIntent(posted)
    );
  }
  return unknownIntent(posted);
}

export default function Shipments() {
  const data = useLoaderData<typeof loader>();
  const receive = useReplyFor("receive");
  const create = useReplyFor("create");
  return (
    <main className="page">
      <p>
        <Link to="/manage">← Manage</Link>
      </p>
      <h1>Shipments · {data.name}</h1>
      <SavedNotice message={data.saved} />
      <p>
        <Link to={`/shipments/${data.id}/chips`}>GoChips: racks, lots and tests</Link>
      </p>
      <h2>Stock</h2>
      {data.stock.length === 0 ? (
        <p className="empty-state">No stock yet: receive some below.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Available</th>
                <th scope="col">Packed</th>
                <th scope="col">Out</th>
                <th scope="col">Missing</th>
              </tr>
            </thead>
            <tbody>
              {data.stock.map((s) => (
                <tr key={s.typeId}>
                  <td>
                    {s.name}
                    {s.isTracked ? " (numbered)" : ""}
                  </td>
                  <td>{s.available}</td>
                  <td>{s.packed}</td>
                  <td>{s.out}</td>
                  <td>{s.missing}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data.missing.length > 0 ? (
        <>
          <h2>Missing items</h2>
          <ul className="plain-list">
            {data.missing.map((m) => (
              <li key={m.id}>
                {m.type} {m.number}{" "}
                {data.may.edit ? <RowButton intent="found" target={m.id} label="Found" accessibleLabel={`${m.type} ${m.number} found`} /> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {data.may.create ? (
        <>
          <h2>Receive stock</h2>
          <SetupForm intent="receive" label="Receive" busyLabel="Receiving…" errors={receive.errors}>
            <input type="hidden" name="submission" value={data.receipt} />
            <SelectField
              name="type"
              label="Type"
              choices={[{ value: "", label: "Choose…" }, ...data.types]}
              defaultValue={receive.values?.type}
              error={receive.errors.type}
            />
            <TextAreaField
              name="numbers"
              label="Numbers (numbered types)"
              hint="One per line, or scan them one after the other."
              defaultValue={receive.values?.numbers}
              error={receive.errors.numbers}
              rows={4}
            />
            <TextField
              name="quantity"
              label="How many (other types)"
              inputMode="numeric"
              defaultValue={receive.values?.quantity}
              error={receive.errors.quantity}
            />
          </SetupForm>
        </>
      ) : null}
      <h2>Shipments</h2>
      {data.shipments.length === 0 ? (
        <p className="empty-state">No shipment yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">To</th>
                <th scope="col">Ship by</th>
                <th scope="col">Return by</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {data.shipments.map((s) => (
                <tr key={s.id}>
                  <td>
                    <Link to={`/shipments/${data.id}/${s.id}`}>{s.destination}</Link>
                  </td>
                  <td>{s.shipBy ?? ""}</td>
                  <td>{s.returnBy ?? ""}</td>
                  <td>{s.state}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data.may.create ? (
        <>
          <h2>New shipment</h2>
          <SetupForm intent="create" label="Start the shipment" busyLabel="Starting…" errors={create.errors}>
            <input type="hidden" name="submission" value={data.submission} />
            <SelectField
              name="destination"
              label="To"
              choices={[{ value: "", label: "Choose a race or a club…" }, ...data.destinations]}
              defaultValue={create.values?.destination}
              error={create.errors.destination}
            />
            <TextAreaField name="address" label="Delivery address" defaultValue={create.values?.address} error={create.errors.address} rows={3} />
            <TextField name="contact_name" label="Contact" defaultValue={create.values?.contact_name} error={create.errors.contact_name} />
            <TextField name="contact_email" label="Contact email" defaultValue={create.values?.contact_email} error={create.errors.contact_email} />
            <TextField name="contact_phone" label="Contact phone" defaultValue={create.values?.contact_phone} error={create.errors.contact_phone} />
            <TextField name="ship_by" type="date" label="Ship by" defaultValue={create.values?.ship_by} error={create.errors.ship_by} />
            <TextField name="use_from" type="date" label="In use from" defaultValue={create.values?.use_from} error={create.errors.use_from} />
            <TextField name="return_by" type="date" label="Return by" defaultValue={create.values?.return_by} error={create.errors.return_by} />
            <TextAreaField name="notes" label="Notes" defaultValue={create.values?.notes} error={create.errors.notes} rows={2} />
          </SetupForm>
        </>
      ) : null}
      {data.people ? <PeoplePanel data={data.people} /> : null}
    </main>
  );
}

export const ErrorBoundary = () => <ErrorPage page {...SHIPPING_ERRORS} />;
