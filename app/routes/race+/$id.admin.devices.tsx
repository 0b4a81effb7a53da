import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { DEVICE_TYPES, deviceDisplayName, deviceTypesInOrder, isDeviceTypeKey, TIMING_DEVICE_DEFAULTS } from "../../../core/timing/devices";
import { requireRaceAccess } from "../../race-admin.server";
import { afterSave, pageQuery, pageUrl, parseForm, readPostedForm, unknownIntent } from "../../forms/posted-form.server";
import { deleteDocumentIntent, documentsOf, requireDocument, type Room } from "../../race-documents.server";
import { deviceFormSchema, newDeviceFormSchema } from "../../race-setup.server";
import { exactSeconds } from "../../../core/time/format";
import {
  CheckboxField,
  ConfirmPanel,
  removal,
  RowLinks,
  SelectField,
  SetupForm,
  SetupSection,
  TextField,
  type SetupReply,
  useReplyFor,
} from "../../components/form-kit";
import { AddSection, SetupTable } from "../../components/setup-table";
import { ErrorPage, RACE_SETUP_ERRORS } from "../../components/error-page";

/** These pages show a device credential once: no browser or proxy may store them. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { race, room, may } = await requireRaceAccess(request, context, params.id, "view");
  const [devices, credentials] = await Promise.all([documentsOf(room, "TimingDevice"), room.deviceCredentialStates()]);
  const query = pageQuery(request);
  const view = devices.map((d) => ({
    id: d.id,
    displayName: deviceDisplayName({ name: d.data.name, humanname: d.data.humanname, deviceNumber: d.data.device_number, type: d.data.type }),
    typeLabel: isDeviceTypeKey(d.data.type) ? DEVICE_TYPES[d.data.type].label : d.data.type,
    name: d.data.name,
    humanname: d.data.humanname,
    device_number: d.data.device_number,
    accuracy: d.data.accuracy,
    precision: d.data.precision,
    offset: exactSeconds(d.data.offset, true) || "0",
    has_bibs: d.data.has_bibs,
    show_on_grid: d.data.show_on_grid,
    hasCredential: credentials[d.id] ?? false,
  }));
  const find = (id: string | null) => (may.edit ? (view.find((d) => d.id === id) ?? null) : null);
  return {
    raceId: race.id,
    may,
    saved: query.saved,
    devices: view,
    editing: find(query.edit),
    removing: find(query.remove),
    renewing: find(query.credential),
    types: deviceTypesInOrder().map((t) => ({ value: t.key, label: t.label })),
  };
}

interface CredentialReply extends SetupReply {
  credential: { deviceId: string; deviceName: string; token: string; readsUrl: string; exampleTime: number };
}

/** A device's new credential, returned in this response only (`headers` keeps it out of every cache). */
async function credentialReply(room: Room, request: Request, raceId: string, intent: string, device: { id: string; name: string }) {
  const credential = await room.issueDeviceCredential(device.id);
  if (!credential) throw new Response("Not found", { status: 404 });
  const readsUrl = `${new URL(request.url).origin}/timing-api/races/${raceId}/reads`;
  return data<CredentialReply>({
    intent,
    target: device.id,
    errors: {},
    values: {},
    credential: { deviceId: device.id, deviceName: device.name, token: credential.token, readsUrl, exampleTime: Date.now() * 1000 },
  });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { race, room, author } = await requireRaceAccess(request, context, params.id, "edit");
  const posted = await readPostedForm(request);
  const base = `/race/${race.id}/admin/devices`;
  if (posted.intent === "create") {
    const parsed = parseForm(newDeviceFormSchema, posted);
    if (!parsed.ok) return parsed.reply;
    // A new device starts with its type's row of the device table (timing.md section 3).
    const type = DEVICE_TYPES[parsed.value.type];
    const result = await room.saveDocument(
      "TimingDevice",
      null,
      {
        ...parsed.value,
        accuracy: type.accuracy ?? TIMING_DEVICE_DEFAULTS.accuracy,
        precision: type.precision ?? TIMING_DEVICE_DEFAULTS.precision,
        has_bibs: type.hasBibs,
        show_on_grid: type.showOnGrid,
        extra_columns: [...type.extraColumns],
        channels: type.channels.map((c) => c.value),
      },
      author,
    );
    if (!result.ok) return afterSave(posted, result, base);
    const name = deviceDisplayName({ name: parsed.value.name, humanname: parsed.value.humanname, deviceNumber: parsed.value.device_number, type: type.key });
    return credentialReply(room, request, race.id, "create", { id: result.value.id, name });
  }
  const device = requireDocument(await documentsOf(room, "TimingDevice"), posted.target);
  if (posted.intent === "save") {
    const parsed = parseForm(deviceFormSchema, posted);
    if (!parsed.ok) return parsed.reply;
    return afterSave(posted, await room.saveDocument("TimingDevice", device.id, parsed.value, author), pageUrl(base, "saved"));
  }
  if (posted.intent === "credential") {
    const name = deviceDisplayName({
      name: device.data.name,
      humanname: device.data.humanname,
      deviceNumber: device.data.device_number,
      type: device.data.type,
    });
    return credentialReply(room, request, race.id, "credential", { id: device.id, name });
  }
  if (posted.intent === "delete") return deleteDocumentIntent({ room, author }, "TimingDevice", posted, base, device.id);
  return unknownIntent(posted);
}

type DeviceView = Awaited<ReturnType<typeof loader>>["devices"][number];

export default function Devices() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<CredentialReply | SetupReply>();
  const base = `/race/${data.raceId}/admin/devices`;
  if (reply && "credential" in reply) return <CredentialShown credential={reply.credential} created={reply.intent === "create"} base={base} />;
  return (
    <SetupSection
      id="devices"
      title="Devices"
      saved={data.saved}
      base={base}
      removing={removal(data.removing, (r) => ({
        title: `Delete the device “${r.displayName}”?`,
        explanation: "Its credential stops working at once. Reads it already sent are kept. A device that a timing point uses cannot be deleted.",
        label: "Delete device",
      }))}
    >
      {data.renewing ? (
        <ConfirmPanel
          title={`Make a new credential for “${data.renewing.displayName}”?`}
          explanation={
            data.renewing.hasCredential
              ? "The old credential stops working at once: the device cannot send reads until it uses the new one."
              : "The device sends its reads with this credential."
          }
          intent="credential"
          target={data.renewing.id}
          label="Make a new credential"
          busyLabel="Making a credential…"
          cancelTo={base}
          danger={false}
        />
      ) : null}
      {data.editing ? (
        <>
          <p>
            <Link to={base}>← All devices</Link>
          </p>
          <h3>{data.editing.displayName}</h3>
          <p className="race-meta">{data.editing.typeLabel}</p>
          <DeviceForm device={data.editing} />
        </>
      ) : (
        <>
          <SetupTable
            items={data.devices}
            keyOf={(d) => d.id}
            empty="No devices yet."
            columns={[
              { header: "Device", cell: (d) => d.displayName },
              { header: "Type", cell: (d) => d.typeLabel },
              { header: "Accuracy (s)", cell: (d) => d.accuracy },
              { header: "Precision", cell: (d) => d.precision },
              { header: "Offset (s)", cell: (d) => d.offset },
              { header: "Credential", cell: (d) => (d.hasCredential ? "Issued" : "None") },
            ]}
            actions={(d) => (
              <>
                <RowLinks base={base} id={d.id} name={d.displayName} mayEdit={data.may.edit} />
                {data.may.edit ? (
                  <Link to={`${base}?credential=${d.id}`} aria-label={`New credential for ${d.displayName}`}>
                    {d.hasCredential ? "New credential…" : "Make a credential…"}
                  </Link>
                ) : null}
              </>
            )}
          />
          {data.may.edit ? <NewDeviceForm types={data.types} /> : null}
        </>
      )}
    </SetupSection>
  );
}

function NewDeviceForm({ types }: { types: { value: string; label: string }[] }) {
  const { errors, values } = useReplyFor("create");
  return (
    <AddSection id="new-device-heading" heading="Add a device">
      <p className="hint">The device gets its type&apos;s accuracy and precision, and a credential to send reads with.</p>
      <SetupForm intent="create" label="Add device" busyLabel="Adding…" errors={errors}>
        <SelectField name="type" label="Type" defaultValue={values?.type ?? types[0]?.value} error={errors.type} choices={types} />
        <TextField
          name="name"
          label="Name"
          hint="Optional; without one the device is called by its human name and number."
          maxLength={200}
          defaultValue={values?.name}
          error={errors.name}
        />
        <TextField name="humanname" label="Human name" maxLength={200} placeholder="Finish reader" defaultValue={values?.humanname} error={errors.humanname} />
        <TextField name="device_number" label="Device number" inputMode="numeric" defaultValue={values?.device_number} error={errors.device_number} />
      </SetupForm>
    </AddSection>
  );
}

function DeviceForm({ device }: { device: DeviceView }) {
  const { errors, values } = useReplyFor("save", device.id);
  const v = (name: keyof DeviceView & string) => values?.[name] ?? String(device[name] ?? "");
  const checked = (name: "has_bibs" | "show_on_grid") => (values ? values[name] === "on" : device[name]);
  return (
    <SetupForm intent="save" target={device.id} label="Save device" busyLabel="Saving…" errors={errors}>
      <TextField name="name" label="Name" maxLength={200} defaultValue={v("name")} error={errors.name} />
      <TextField name="humanname" label="Human name" maxLength={200} defaultValue={v("humanname")} error={errors.humanname} />
      <TextField name="device_number" label="Device number" inputMode="numeric" defaultValue={v("device_number")} error={errors.device_number} />
      <TextField name="accuracy" label="Accuracy (seconds)" inputMode="decimal" defaultValue={v("accuracy")} error={errors.accuracy} />
      <TextField name="precision" label="Precision (decimals of a second)" inputMode="numeric" defaultValue={v("precision")} error={errors.precision} />
      <TextField
        name="offset"
        label="Offset (seconds)"
        inputMode="decimal"
        hint="Added to every time the device sends, to correct its clock: + or −, with up to 6 decimals."
        defaultValue={v("offset")}
        error={errors.offset}
      />
      <CheckboxField name="has_bibs" label="Its reads carry bib numbers" defaultChecked={checked("has_bibs")} />
      <CheckboxField name="show_on_grid" label="Show on the timing grid" defaultChecked={checked("show_on_grid")} />
    </SetupForm>
  );
}

function CredentialShown({ credential, created, base }: { credential: CredentialReply["credential"]; created: boolean; base: string }) {
  const example = `curl -X POST '${credential.readsUrl}' \\
  -H 'Authorization: Bearer ${credential.token}' \\
  -H 'Content-Type: application/json' \\
  -d '{"reads":[{"seq":1,"chip":"E2000001","time":${credential.exampleTime},"channel":1}]}'`;
  return (
    <section aria-labelledby="credential-heading">
      <h2 id="credential-heading">{created ? `Device “${credential.deviceName}” added` : `New credential for “${credential.deviceName}”`}</h2>
      <p>The device sends its reads with this credential:</p>
      <p className="secret" data-testid="device-token">
        {credential.token}
      </p>
      <p className="form-error" role="alert">
        Copy the credential now and put it into the device&apos;s settings. It will not be shown again: only a hash of it is stored.
        {created ? "" : " The previous credential no longer works."} If it is lost, make a new one from the device list.
      </p>
      <h3>Sending reads</h3>
      <p>
        POST a batch of reads to <code>{credential.readsUrl}</code> with the header <code>Authorization: Bearer &lt;credential&gt;</code>. Each read has the
        device&apos;s own sequence number <code>seq</code> (a read sent again with the same number is ignored), a <code>chip</code> or a <code>bib</code>, the{" "}
        <code>time</code> in microseconds since the Unix epoch by the device&apos;s clock (or <code>tod</code>, the time of day on race day), and optionally the{" "}
        <code>channel</code>. For example:
      </p>
      <pre className="details-log">{example}</pre>
      <p>
        <Link to={base} className="button">
          Back to the devices
        </Link>
      </p>
    </section>
  );
}

export const ErrorBoundary = () => <ErrorPage {...RACE_SETUP_ERRORS} />;
