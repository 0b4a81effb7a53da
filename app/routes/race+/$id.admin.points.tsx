import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { deviceDisplayName } from "../../../core/timing/devices";
import { requireRaceAccess } from "../../race-admin.server";
import { afterSave, pageQuery, pageUrl, parseForm, readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import { deleteDocumentIntent, documentsOf, requireDocument, saveDocumentIntent } from "../../race-documents.server";
import { moveFormSchema, pointDeviceFormSchema, timingPointFormSchema } from "../../race-setup.server";
import { DEVICE_MODE_CHOICES } from "../../components/race-setup-choices";
import { NoneYet, removal, RowButton, RowLinks, SelectField, SetupForm, SetupSection, TextField, useReplyFor } from "../../components/form-kit";
import { AddSection, SetupTable } from "../../components/setup-table";
import { ErrorPage, RACE_SETUP_ERRORS } from "../../components/error-page";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { race, room, may } = await requireRaceAccess(request, context, params.id, "view");
  const [points, devices] = await Promise.all([documentsOf(room, "TimingPoint"), documentsOf(room, "TimingDevice")]);
  const query = pageQuery(request);
  const deviceName = new Map(
    devices.map((d) => [d.id, deviceDisplayName({ name: d.data.name, humanname: d.data.humanname, deviceNumber: d.data.device_number, type: d.data.type })]),
  );
  const view = points.map((p) => ({
    id: p.id,
    name: p.data.name,
    devices: p.data.devices_list.map((d) => ({ id: d.id, name: deviceName.get(d.id) ?? "(missing device)", mode: d.mode, channel: d.channel })),
  }));
  return {
    raceId: race.id,
    may,
    saved: query.saved,
    points: view,
    editing: may.edit ? (view.find((p) => p.id === query.edit) ?? null) : null,
    removing: may.edit ? (view.find((p) => p.id === query.remove) ?? null) : null,
    devices: [...deviceName].map(([value, label]) => ({ value, label })),
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { race, room, author } = await requireRaceAccess(request, context, params.id, "edit");
  const posted = await readPostedForm(request);
  const base = `/race/${race.id}/admin/points`;
  if (posted.intent === "create" || posted.intent === "save") {
    return saveDocumentIntent({ room, author }, "TimingPoint", posted, base, timingPointFormSchema);
  }
  const point = requireDocument(await documentsOf(room, "TimingPoint"), posted.target);
  if (posted.intent === "delete") return deleteDocumentIntent({ room, author }, "TimingPoint", posted, base, point.id);
  const devices = point.data.devices_list;
  if (posted.intent === "add-device") {
    const parsed = parseForm(pointDeviceFormSchema, posted);
    if (!parsed.ok) return parsed.reply;
    const { device, mode, channel } = parsed.value;
    if (devices.some((d) => d.id === device && d.channel === channel))
      return refuse(posted, { device: "This device is already on the point with that channel" });
    const entry = { id: device, mode, channel, accuracy: null, tested_time: null };
    return afterSave(posted, await room.saveDocument("TimingPoint", point.id, { devices_list: [...devices, entry] }, author), pageUrl(base, "added", point.id));
  }
  if (posted.intent === "remove-device") {
    const parsed = parseForm(moveFormSchema, posted);
    if (!parsed.ok || parsed.value.index >= devices.length)
      return refuse(posted, { form: "That device is no longer on the point. The page now shows the current list." }, 409);
    const next = devices.filter((_, i) => i !== parsed.value.index);
    return afterSave(posted, await room.saveDocument("TimingPoint", point.id, { devices_list: next }, author), pageUrl(base, "removed", point.id));
  }
  return unknownIntent(posted);
}

type PointView = Awaited<ReturnType<typeof loader>>["points"][number];

const modeLabel = (mode: string) => DEVICE_MODE_CHOICES.find((m) => m.value === mode)?.label ?? mode;

export default function TimingPoints() {
  const data = useLoaderData<typeof loader>();
  const base = `/race/${data.raceId}/admin/points`;
  return (
    <SetupSection
      id="points"
      title="Timing points"
      hint="A timing point is a place racers are timed (a start, a finish line, a split); its devices send the reads. Courses list the points racers pass."
      saved={data.saved}
      base={base}
      removing={removal(data.removing, (r) => ({
        title: `Delete the timing point “${r.name}”?`,
        explanation: "Reads its devices have already sent are kept. A point that a course uses cannot be deleted.",
        label: "Delete timing point",
      }))}
    >
      {data.editing ? (
        <PointEditor point={data.editing} base={base} devices={data.devices} raceId={data.raceId} />
      ) : (
        <>
          <SetupTable
            items={data.points}
            keyOf={(p) => p.id}
            empty="No timing points yet."
            columns={[
              { header: "Timing point", cell: (p) => p.name },
              {
                header: "Devices",
                cell: (p) =>
                  p.devices.length > 0 ? (
                    p.devices.map((d) => `${d.name} (${modeLabel(d.mode)}${d.channel !== null ? `, channel ${d.channel}` : ""})`).join(", ")
                  ) : (
                    <span className="empty-state">No devices yet</span>
                  ),
              },
            ]}
            actions={(p) => <RowLinks base={base} id={p.id} name={p.name} mayEdit={data.may.edit} />}
          />
          <AddSection id="new-point-heading" heading="Add a timing point" shown={data.may.edit}>
            <PointForm intent="create" point={null} />
          </AddSection>
        </>
      )}
    </SetupSection>
  );
}

function PointForm({ intent, point }: { intent: "create" | "save"; point: PointView | null }) {
  const { errors, values } = useReplyFor(intent, point?.id ?? null);
  return (
    <SetupForm intent={intent} target={point?.id ?? null} label={point ? "Save timing point" : "Add timing point"} busyLabel="Saving…" errors={errors}>
      <TextField name="name" label="Name" required maxLength={200} placeholder="Finish" defaultValue={values?.name ?? point?.name} error={errors.name} />
    </SetupForm>
  );
}

function PointEditor({ point, base, devices, raceId }: { point: PointView; base: string; devices: { value: string; label: string }[]; raceId: string }) {
  const { errors, values } = useReplyFor("add-device", point.id);
  const removeError = useReplyFor("remove-device", point.id).errors.form;
  return (
    <>
      <p>
        <Link to={base}>← All timing points</Link>
      </p>
      <h3>{point.name}</h3>
      <PointForm intent="save" point={point} />
      <section aria-labelledby="point-devices-heading">
        <h3 id="point-devices-heading">Devices at this point</h3>
        {removeError ? (
          <p className="form-error" role="alert">
            {removeError}
          </p>
        ) : null}
        <SetupTable
          items={point.devices}
          keyOf={(d, i) => `${d.id}-${i}`}
          empty="No devices at this point yet."
          columns={[
            { header: "Device", cell: (d) => d.name },
            { header: "Mode", cell: (d) => modeLabel(d.mode) },
            { header: "Channel", cell: (d) => d.channel ?? "All" },
          ]}
          actions={(d, i) => (
            <RowButton intent="remove-device" target={point.id} extra={{ index: String(i) }} label="Remove" accessibleLabel={`Remove ${d.name}`} />
          )}
        />
        <h4>Add a device</h4>
        {devices.length === 0 ? (
          <NoneYet what="devices" to={`/race/${raceId}/admin/devices`} label="Add a device" />
        ) : (
          <SetupForm intent="add-device" target={point.id} label="Add device" busyLabel="Adding…" errors={errors}>
            <SelectField
              id="device-device"
              name="device"
              label="Device"
              defaultValue={values?.device ?? devices[0]?.value}
              error={errors.device}
              choices={devices}
            />
            <SelectField
              id="device-mode"
              name="mode"
              label="Mode"
              hint="Timing and backup devices time racers; precall and on-course devices inform the announcer."
              defaultValue={values?.mode ?? "timing"}
              error={errors.mode}
              choices={DEVICE_MODE_CHOICES}
            />
            <TextField
              id="device-channel"
              name="channel"
              label="Channel"
              inputMode="numeric"
              hint="Optional: only reads on this channel of the device count here."
              defaultValue={values?.channel}
              error={errors.channel}
            />
          </SetupForm>
        )}
      </section>
    </>
  );
}

export const ErrorBoundary = () => <ErrorPage {...RACE_SETUP_ERRORS} />;
