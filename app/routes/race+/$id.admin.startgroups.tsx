import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { requireRaceAccess } from "../../race-admin.server";
import { deleteDocumentIntent, documentsOf, requireDocument, saveDocumentIntent } from "../../race-documents.server";
import { pageQuery, readPostedForm, unknownIntent } from "../../forms/posted-form.server";
import { raceClockOf, timeOfDayText } from "../../race-clock.server";
import { startGroupChangesOf, startGroupFormSchema, startGroupTimeProblem } from "../../race-setup.server";
import { exactSeconds } from "../../../core/time/format";
import { removal, RowLinks, SelectField, SetupForm, SetupSection, TextField, useReplyFor } from "../../components/form-kit";
import { AddSection, SetupTable } from "../../components/setup-table";
import { ErrorPage, RACE_SETUP_ERRORS } from "../../components/error-page";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { race, room, may } = await requireRaceAccess(request, context, params.id, "view");
  const groups = await documentsOf(room, "StartGroup");
  const clock = raceClockOf(race);
  const query = pageQuery(request);
  const view = groups.map((g) => ({
    id: g.id,
    label: g.data.name || `Start group ${g.ordinal}`,
    name: g.data.name,
    start_mode: g.data.start_mode ?? "",
    scheduled_start_time: timeOfDayText(g.data.scheduled_start_time, clock),
    assigned_start_time: timeOfDayText(g.data.assigned_start_time, clock),
    recorded_start_time: timeOfDayText(g.data.recorded_start_time, clock),
    start_interval: exactSeconds(g.data.start_interval),
    start_size: g.data.start_size === null ? "" : String(g.data.start_size),
    start_gap: exactSeconds(g.data.start_gap),
  }));
  const find = (id: string | null) => (may.edit ? (view.find((g) => g.id === id) ?? null) : null);
  return { raceId: race.id, may, saved: query.saved, groups: view, editing: find(query.edit), removing: find(query.remove) };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { race, room, author } = await requireRaceAccess(request, context, params.id, "edit");
  const posted = await readPostedForm(request);
  const base = `/race/${race.id}/admin/startgroups`;
  if (posted.intent === "create" || posted.intent === "save") {
    const clock = raceClockOf(race);
    return saveDocumentIntent(
      { room, author },
      "StartGroup",
      posted,
      base,
      startGroupFormSchema,
      (value) => startGroupChangesOf(value, clock),
      (changes) => startGroupTimeProblem(changes as ReturnType<typeof startGroupChangesOf>, clock),
    );
  }
  if (posted.intent === "delete") {
    const group = requireDocument(await documentsOf(room, "StartGroup"), posted.target);
    return deleteDocumentIntent({ room, author }, "StartGroup", posted, base, group.id);
  }
  return unknownIntent(posted);
}

type GroupView = Awaited<ReturnType<typeof loader>>["groups"][number];

const MODE_LABELS: Record<string, string> = { "": "Race's start mode", mass: "Mass start", individual: "Individual start" };

export default function StartGroups() {
  const data = useLoaderData<typeof loader>();
  const base = `/race/${data.raceId}/admin/startgroups`;
  return (
    <SetupSection
      id="groups"
      title="Start groups"
      saved={data.saved}
      base={base}
      removing={removal(data.removing, (r) => ({
        title: `Delete “${r.label}”?`,
        explanation: "Racers must be moved out of the group first. Results grouped by start order lose this group.",
        label: "Delete start group",
      }))}
    >
      {data.editing ? (
        <>
          <p>
            <Link to={base}>← All start groups</Link>
          </p>
          <h3>{data.editing.label}</h3>
          <GroupForm intent="save" group={data.editing} />
        </>
      ) : (
        <>
          <SetupTable
            items={data.groups}
            keyOf={(g) => g.id}
            empty="No start groups yet."
            columns={[
              { header: "Start group", cell: (g) => g.label },
              { header: "Start mode", cell: (g) => MODE_LABELS[g.start_mode] },
              { header: "Scheduled", cell: (g) => g.scheduled_start_time },
              { header: "Assigned", cell: (g) => g.assigned_start_time },
              { header: "Recorded", cell: (g) => g.recorded_start_time },
              { header: "Interval (s)", cell: (g) => g.start_interval },
              { header: "Size", cell: (g) => g.start_size },
              { header: "Gap (s)", cell: (g) => g.start_gap },
            ]}
            actions={(g) => <RowLinks base={base} id={g.id} name={g.label} mayEdit={data.may.edit} />}
          />
          <AddSection id="new-group-heading" heading="Add a start group" shown={data.may.edit}>
            <GroupForm intent="create" group={null} />
          </AddSection>
        </>
      )}
    </SetupSection>
  );
}

function GroupForm({ intent, group }: { intent: "create" | "save"; group: GroupView | null }) {
  const { errors, values } = useReplyFor(intent, group?.id ?? null);
  const v = (name: keyof GroupView & string) => values?.[name] ?? group?.[name] ?? "";
  const timeHint = "Time of day on race day, HH:MM:SS. Optional.";
  return (
    <SetupForm intent={intent} target={group?.id ?? null} label={group ? "Save start group" : "Add start group"} busyLabel="Saving…" errors={errors}>
      <TextField name="name" label="Name" maxLength={200} hint="Optional; unnamed groups are numbered." defaultValue={v("name")} error={errors.name} />
      <SelectField
        name="start_mode"
        label="Start mode"
        defaultValue={v("start_mode")}
        error={errors.start_mode}
        choices={Object.entries(MODE_LABELS).map(([value, label]) => ({ value, label }))}
      />
      <TextField
        name="scheduled_start_time"
        label="Scheduled start"
        placeholder="HH:MM:SS"
        hint={timeHint}
        defaultValue={v("scheduled_start_time")}
        error={errors.scheduled_start_time}
      />
      <TextField
        name="assigned_start_time"
        label="Assigned start"
        placeholder="HH:MM:SS"
        hint={timeHint}
        defaultValue={v("assigned_start_time")}
        error={errors.assigned_start_time}
      />
      <TextField
        name="recorded_start_time"
        label="Recorded start"
        placeholder="HH:MM:SS"
        hint="The time the group actually started; it wins over the others."
        defaultValue={v("recorded_start_time")}
        error={errors.recorded_start_time}
      />
      <TextField
        name="start_interval"
        label="Start interval (seconds)"
        inputMode="decimal"
        hint="Individual starts; leave empty to use the race's."
        defaultValue={v("start_interval")}
        error={errors.start_interval}
      />
      <TextField
        name="start_size"
        label="Start size"
        inputMode="numeric"
        hint="Racers leaving together; leave empty to use the race's."
        defaultValue={v("start_size")}
        error={errors.start_size}
      />
      <TextField name="start_gap" label="Gap after the previous group (seconds)" inputMode="decimal" defaultValue={v("start_gap")} error={errors.start_gap} />
    </SetupForm>
  );
}

export const ErrorBoundary = () => <ErrorPage {...RACE_SETUP_ERRORS} />;
