import type { ReactNode } from "react";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { GOCHIP_STATUS_LABELS, GOCHIP_STATUSES } from "../../../core/gochips/chips";
import { SHIPMENT_STATE_LABELS } from "../../../core/shipping/shipments";
import { chipOverview } from "../../../workers/services/gochips";
import { chipsAction, GOCHIP_NOTICES, issuedChipRows } from "../../admin/gochips.server";
import { IssuedChips } from "../../components/issued-chips";
import { requireDepotAccess } from "../../admin/shipping.server";
import { readPostedForm, unknownIntent } from "../../forms/posted-form.server";
import { SavedNotice, SelectField, SetupForm, TextAreaField, TextField, useReplyFor } from "../../components/form-kit";
import { ErrorPage, SHIPPING_ERRORS } from "../../components/error-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `GoChips · ${data.name}` : "GoChips" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const access = await requireDepotAccess(request, context, params.depot ?? "");
  const [overview, issued] = await Promise.all([chipOverview(access.db, access.target.id), issuedChipRows(access, null)]);
  return {
    id: access.target.id,
    name: access.target.name,
    saved: GOCHIP_NOTICES[new URL(request.url).searchParams.get("saved") ?? ""] ?? null,
    may: access.may,
    counts: GOCHIP_STATUSES.map((s) => ({ status: GOCHIP_STATUS_LABELS[s], n: overview.byStatus[s] ?? 0 })),
    lots: overview.lots,
    racks: overview.racks.map((r) => ({ ...r, shipmentState: r.shipmentState ? SHIPMENT_STATE_LABELS[r.shipmentState] : null })),
    tests: overview.tests.map((t) => ({ ...t, at: new Date(t.at).toISOString().slice(0, 16).replace("T", " ") })),
    outOfUse: overview.outOfUse.map((c) => ({ ...c, status: GOCHIP_STATUS_LABELS[c.status] })),
    issued,
    lost: overview.outOfUse.filter((c) => c.status === "lost").map((c) => c.hexCode),
    // One id per opened form: sent twice (a double click), each acts once.
    forms: { lot: crypto.randomUUID(), rack: crypto.randomUUID(), test: crypto.randomUUID(), found: crypto.randomUUID(), checkin: crypto.randomUUID() },
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const access = await requireDepotAccess(request, context, params.depot ?? "");
  const posted = await readPostedForm(request);
  return (await chipsAction(access, posted, context.now)) ?? unknownIntent(posted);
}

type Reply = ReturnType<typeof useReplyFor>;

/** A chip back at the depot (decision 0077): which chip (`children`), the rack and the slot it goes into, once per form. */
function ChipBackForm(props: {
  intent: "checkin" | "found";
  label: string;
  submission: string;
  racks: { value: string; label: string }[];
  children: (reply: Reply) => ReactNode;
}) {
  const reply = useReplyFor(props.intent);
  return (
    <SetupForm intent={props.intent} label={props.label} busyLabel="Saving…" errors={reply.errors}>
      <input type="hidden" name="submission" value={props.submission} />
      {props.children(reply)}
      <SelectField
        id={`${props.intent}-rack`}
        name="rack"
        label="Into rack"
        choices={[{ value: "", label: props.intent === "found" ? "Not in a rack" : "Choose…" }, ...props.racks]}
        defaultValue={reply.values?.rack}
        error={reply.errors.rack}
      />
      <TextField
        id={`${props.intent}-slot`}
        name="slot"
        label="Slot"
        hint={props.intent === "found" ? "A found chip is Untested until its next test." : undefined}
        inputMode="numeric"
        defaultValue={reply.values?.slot}
        error={reply.errors.slot}
      />
    </SetupForm>
  );
}

export default function Chips() {
  const data = useLoaderData<typeof loader>();
  const lot = useReplyFor("lot");
  const rack = useReplyFor("rack");
  const test = useReplyFor("test");
  const rackChoices = data.racks.map((r) => ({ value: r.id, label: `Rack ${r.number}` }));
  const base = `/shipments/${data.id}`;
  return (
    <main className="page">
      <p>
        <Link to={base}>← Shipments · {data.name}</Link>
      </p>
      <h1>GoChips · {data.name}</h1>
      <SavedNotice message={data.saved} />
      <p>{data.counts.map((c) => `${c.status}: ${c.n}`).join(" · ")}</p>

      <h2>Racks</h2>
      {data.racks.length === 0 ? (
        <p className="empty-state">No rack yet: add one below.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Rack</th>
                <th scope="col">Chips</th>
                <th scope="col">Shipped with</th>
              </tr>
            </thead>
            <tbody>
              {data.racks.map((r) => (
                <tr key={r.id}>
                  <td>
                    <Link to={`${base}/racks/${r.id}`}>Rack {r.number}</Link>
                  </td>
                  <td>{`${r.chips} of ${r.slotCount}`}</td>
                  <td>{r.shipment ? `${r.shipment} (${r.shipmentState})` : "At the depot"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data.may.create ? (
        <SetupForm intent="rack" label="Add the rack" busyLabel="Adding…" errors={rack.errors}>
          <input type="hidden" name="submission" value={data.forms.rack} />
          <TextField name="number" label="Rack number" defaultValue={rack.values?.number} error={rack.errors.number} />
          <TextField name="slot_count" label="Slots" inputMode="numeric" defaultValue={rack.values?.slot_count ?? "100"} error={rack.errors.slot_count} />
        </SetupForm>
      ) : null}

      <h2 id="tests">Test results</h2>
      {data.may.edit && data.racks.length > 0 ? (
        <SetupForm intent="test" label="Record the test" busyLabel="Recording…" errors={test.errors} encType="multipart/form-data">
          <input type="hidden" name="submission" value={data.forms.test} />
          <SelectField
            name="rack"
            label="Rack tested"
            choices={[{ value: "", label: "Choose…" }, ...data.racks.map((r) => ({ value: r.id, label: `Rack ${r.number}` }))]}
            defaultValue={test.values?.rack}
            error={test.errors.rack}
          />
          <TextField
            name="activator"
            label="GoChip Activator"
            hint="Its name or serial number."
            defaultValue={test.values?.activator}
            error={test.errors.activator}
          />
          <div className="field">
            <label htmlFor="file">The Activator&apos;s CSV of the hex codes that answered</label>
            <input id="file" name="file" type="file" accept=".csv,.txt,text/csv,text/plain" aria-describedby={test.errors.file ? "file-error" : undefined} />
            {test.errors.file ? (
              <span id="file-error" className="form-error">
                {test.errors.file}
              </span>
            ) : null}
          </div>
          <TextAreaField
            name="codes"
            label="Or the hex codes that answered"
            hint="One per line. A chip of the rack that does not answer counts a failure; the second failure marks it faulty."
            defaultValue={test.values?.codes}
            error={test.errors.codes}
            rows={4}
          />
        </SetupForm>
      ) : null}
      {data.tests.length === 0 ? (
        <p className="empty-state">No test yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">When (UTC)</th>
                <th scope="col">Rack</th>
                <th scope="col">Activator</th>
                <th scope="col">Answered</th>
                <th scope="col">Did not answer</th>
                <th scope="col">Not in the rack</th>
              </tr>
            </thead>
            <tbody>
              {data.tests.map((t) => (
                <tr key={t.id}>
                  <td>{t.at}</td>
                  <td>{t.rack ?? ""}</td>
                  <td>{t.activator ?? ""}</td>
                  <td>{t.answered.length}</td>
                  <td>{t.silent.join(", ")}</td>
                  <td>{t.unknown.join(", ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2 id="issued">Issued at races</h2>
      <p>Chips given to racers from racks shipped to a race. Check each in below, or load them into a rack, when they come back.</p>
      <IssuedChips chips={data.issued} showRack />

      {data.may.edit ? (
        <>
          <h2 id="returns">Chips back at the depot</h2>
          {data.racks.length > 0 ? (
            <ChipBackForm intent="checkin" label="Check in" submission={data.forms.checkin} racks={rackChoices}>
              {(reply) => (
                <TextField
                  id="checkin-hex_code"
                  name="hex_code"
                  label="Hex code of a chip that came back"
                  hint="A chip issued at a race, or in no rack."
                  defaultValue={reply.values?.hex_code}
                  error={reply.errors.hex_code}
                />
              )}
            </ChipBackForm>
          ) : null}
          {data.lost.length > 0 ? (
            <ChipBackForm intent="found" label="Mark found" submission={data.forms.found} racks={rackChoices}>
              {(reply) => (
                <SelectField
                  id="found-hex_code"
                  name="hex_code"
                  label="Lost chip found"
                  choices={[{ value: "", label: "Choose…" }, ...data.lost.map((code) => ({ value: code, label: code }))]}
                  defaultValue={reply.values?.hex_code}
                  error={reply.errors.hex_code}
                />
              )}
            </ChipBackForm>
          ) : null}
        </>
      ) : null}

      <h2>Faulty and lost chips</h2>
      {data.outOfUse.length === 0 ? (
        <p className="empty-state">None.</p>
      ) : (
        <ul className="plain-list">
          {data.outOfUse.map((c) => (
            <li key={c.hexCode}>{`${c.hexCode}: ${c.status}${c.rack ? ` (rack ${c.rack}, slot ${c.slot})` : ""}`}</li>
          ))}
        </ul>
      )}

      <h2>Lots</h2>
      {data.lots.length === 0 ? (
        <p className="empty-state">No lot yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Lot</th>
                <th scope="col">Received</th>
                <th scope="col">Chips</th>
                <th scope="col">Notes</th>
              </tr>
            </thead>
            <tbody>
              {data.lots.map((l) => (
                <tr key={l.id}>
                  <td>{l.lotNumber}</td>
                  <td>{l.receivedOn ?? ""}</td>
                  <td>{l.chipCount}</td>
                  <td>{l.notes ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data.may.create ? (
        <SetupForm intent="lot" label="Record the lot" busyLabel="Recording…" errors={lot.errors}>
          <input type="hidden" name="submission" value={data.forms.lot} />
          <TextField name="lot_number" label="Lot number" defaultValue={lot.values?.lot_number} error={lot.errors.lot_number} />
          <TextField name="received_on" type="date" label="Received" defaultValue={lot.values?.received_on} error={lot.errors.received_on} />
          <TextField name="chip_count" label="Chips in the lot" inputMode="numeric" defaultValue={lot.values?.chip_count} error={lot.errors.chip_count} />
          <TextAreaField name="notes" label="Notes" defaultValue={lot.values?.notes} error={lot.errors.notes} rows={2} />
        </SetupForm>
      ) : null}
    </main>
  );
}

export const ErrorBoundary = () => <ErrorPage page {...SHIPPING_ERRORS} />;
