/**
 * A free-order race's Segments page (timing.md section 2): the segment list, reorderable by dragging or
 * with Move up and Move down; the course groups; the meta start groups. Every change saves the whole list
 * through the RaceRoom's settings, which resyncs the segment courses and rebuilds the start groups.
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { exactSeconds } from "../../../core/time/format";
import { nextSegmentName, SEGMENT_ORDER_LABELS, SEGMENT_ORDER_TYPES } from "../../../core/timing/free-order";
import { movedTo } from "../../../core/lists/move";
import {
  courseGroupFormSchema,
  metaStartFormSchema,
  segmentFormSchema,
  withCourseGroup,
  withMetaStart,
  withoutSegment,
  withSegment,
} from "../../free-order-setup.server";
import { requireRaceAccess } from "../../race-admin.server";
import { afterSave, pageQuery, pageUrl, parseForm, readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import { criterionFields, racerFieldsOf } from "../../race-setup.server";
import { documentsOf } from "../../race-documents.server";
import { raceClockOf, timeOfDayText } from "../../race-clock.server";
import { CRITERION_OPS } from "../../components/race-setup-choices";
import { ReorderableTable } from "../../components/reorderable-table";
import { CheckboxField, NoneYet, RadioField, removal, RowLinks, SelectField, SetupForm, SetupSection, TextField, useReplyFor } from "../../components/form-kit";
import { AddSection, SetupTable } from "../../components/setup-table";
import { ErrorPage, RACE_SETUP_ERRORS } from "../../components/error-page";

/** `?edit=` and `?delete=` name an entry as kind:id, as there are three lists on the page. */
function entryOf(param: string | null): { kind: "segment" | "group" | "wave"; id: string } | null {
  const match = /^(segment|group|wave):(.+)$/.exec(param ?? "");
  return match ? { kind: match[1] as "segment" | "group" | "wave", id: match[2]! } : null;
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { race, room, may } = await requireRaceAccess(request, context, params.id, "view");
  const [settings, points] = await Promise.all([room.settings(), documentsOf(room, "TimingPoint")]);
  if (!settings) throw new Response("Not found", { status: 404 });
  const clock = raceClockOf(race);
  const query = pageQuery(request);
  const pointName = new Map(points.map((p) => [p.id, p.data.name]));
  const segmentName = new Map(settings.segments_list.map((s) => [s.id, s.name]));
  const fieldLabel = new Map(criterionFields(racerFieldsOf(settings.fields_list)).map((f) => [f.value, f.label]));
  const opLabel = new Map<string, string>(CRITERION_OPS.map((o) => [o.value, o.label]));
  const segments = settings.segments_list.map((s) => ({
    id: s.id,
    name: s.name,
    start_point: s.start_point,
    finish_point: s.finish_point,
    start: pointName.get(s.start_point) ?? "(missing timing point)",
    finish: pointName.get(s.finish_point) ?? "(missing timing point)",
    min_time: exactSeconds(s.min_time),
  }));
  const groups = settings.meta_courses_list.map((g) => {
    const criterion = (g.criteria[0] ?? null) as { field: string; op: string; value: unknown } | null;
    return {
      id: g.id,
      name: g.name,
      segment_order_type: g.segment_order_type,
      segmentIds: g.segment_order_list,
      segments: g.segment_order_list.length === 0 ? "Every segment" : g.segment_order_list.map((id) => segmentName.get(id) ?? id).join(", "),
      criterion_field: criterion?.field ?? "",
      criterion_op: criterion?.op ?? "eq",
      criterion_value: criterion?.value === null || criterion?.value === undefined ? "" : String(criterion.value),
      condition: criterion
        ? `${fieldLabel.get(criterion.field) ?? criterion.field} ${opLabel.get(criterion.op) ?? criterion.op} ${criterion.value ?? ""}`.trim()
        : "",
    };
  });
  const waves = settings.meta_startgroups_list.map((m) => ({
    id: m.id,
    name: m.name,
    first_start_time: timeOfDayText(m.first_start_time, clock),
    start_interval: exactSeconds(m.start_interval),
  }));
  const edit = may.edit ? entryOf(query.edit) : null;
  const remove = may.edit ? entryOf(query.remove) : null;
  const find = <T extends { id: string }>(kind: string, list: T[], entry: typeof edit) =>
    entry?.kind === kind ? (list.find((e) => e.id === entry.id) ?? null) : null;
  return {
    raceId: race.id,
    may,
    saved: query.saved,
    isFreeOrder: settings.is_free_segment,
    points: points.map((p) => ({ value: p.id, label: p.data.name })),
    nextName: nextSegmentName(settings.segments_list),
    criterionFields: criterionFields(racerFieldsOf(settings.fields_list)),
    segments,
    groups,
    waves,
    editing: { segment: find("segment", segments, edit), group: find("group", groups, edit), wave: find("wave", waves, edit) },
    removing: { segment: find("segment", segments, remove), group: find("group", groups, remove), wave: find("wave", waves, remove) },
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { race, room, author } = await requireRaceAccess(request, context, params.id, "edit");
  const posted = await readPostedForm(request);
  const base = `/race/${race.id}/admin/segments`;
  const settings = await room.settings();
  if (!settings) throw new Response("Not found", { status: 404 });
  const target = posted.target;
  const save = async (changes: Record<string, unknown>, notice: Parameters<typeof pageUrl>[1]) =>
    afterSave(posted, await room.updateSettings(changes, author), pageUrl(base, notice));
  const gone = () => refuse(posted, { form: "That entry no longer exists. The page now shows the current lists." }, 409);

  switch (posted.intent) {
    case "segment-create":
    case "segment-save": {
      if (posted.intent === "segment-save" && !settings.segments_list.some((s) => s.id === target)) return gone();
      const parsed = parseForm(segmentFormSchema, posted);
      if (!parsed.ok) return parsed.reply;
      return save(
        { segments_list: withSegment(settings.segments_list, posted.intent === "segment-save" ? target : null, parsed.value) },
        posted.intent === "segment-save" ? "saved" : "added",
      );
    }
    case "segment-move": {
      const index = settings.segments_list.findIndex((s) => s.id === target);
      if (index < 0) return gone();
      const direction = posted.values.direction;
      const toIndex = direction === "up" ? index - 1 : direction === "down" ? index + 1 : Number(posted.values.toIndex);
      return save({ segments_list: movedTo(settings.segments_list, target!, toIndex) }, "moved");
    }
    case "group-create":
    case "group-save": {
      if (posted.intent === "group-save" && !settings.meta_courses_list.some((g) => g.id === target)) return gone();
      const parsed = parseForm(courseGroupFormSchema(settings.segments_list.map((s) => s.id)), posted);
      if (!parsed.ok) return parsed.reply;
      return save(
        { meta_courses_list: withCourseGroup(settings.meta_courses_list, posted.intent === "group-save" ? target : null, parsed.value) },
        posted.intent === "group-save" ? "saved" : "added",
      );
    }
    case "wave-create":
    case "wave-save": {
      if (posted.intent === "wave-save" && !settings.meta_startgroups_list.some((m) => m.id === target)) return gone();
      const parsed = parseForm(metaStartFormSchema, posted);
      if (!parsed.ok) return parsed.reply;
      return save(
        {
          meta_startgroups_list: withMetaStart(settings.meta_startgroups_list, posted.intent === "wave-save" ? target : null, parsed.value, raceClockOf(race)),
        },
        posted.intent === "wave-save" ? "saved" : "added",
      );
    }
    case "delete": {
      const entry = entryOf(target);
      if (entry?.kind === "segment" && settings.segments_list.some((s) => s.id === entry.id)) return save(withoutSegment(settings, entry.id), "deleted");
      if (entry?.kind === "group" && settings.meta_courses_list.some((g) => g.id === entry.id)) {
        if (settings.meta_courses_list.length === 1)
          return refuse(posted, { form: "A free-order race needs at least one course group. Add another before deleting this one." }, 409);
        return save({ meta_courses_list: settings.meta_courses_list.filter((g) => g.id !== entry.id) }, "deleted");
      }
      if (entry?.kind === "wave" && settings.meta_startgroups_list.some((m) => m.id === entry.id))
        return save({ meta_startgroups_list: settings.meta_startgroups_list.filter((m) => m.id !== entry.id) }, "deleted");
      if (entry) return redirect(pageUrl(base, "deleted"));
      return unknownIntent(posted);
    }
    default:
      return unknownIntent(posted);
  }
}

type PageData = Awaited<ReturnType<typeof loader>>;
type SegmentView = PageData["segments"][number];
type GroupView = PageData["groups"][number];
type WaveView = PageData["waves"][number];

export default function Segments() {
  const data = useLoaderData<typeof loader>();
  const base = `/race/${data.raceId}/admin/segments`;
  if (!data.isFreeOrder) {
    return (
      <section aria-labelledby="segments-heading">
        <h2 id="segments-heading">Segments</h2>
        <p className="empty-state">
          This race is not a free-order race. To let racers ride timed segments in any order, choose the Enduro timing mode and turn on Free order in the{" "}
          <Link to={`/race/${data.raceId}/admin`}>Setup</Link> page&apos;s Segments &amp; Timing Devices panel.
        </p>
      </section>
    );
  }
  const { editing, removing } = data;
  return (
    <>
      <SetupSection
        id="segments"
        title="Segments"
        hint="Racers ride these timed segments in any order; each is timed from a read at its start to a read at its finish. Saving resyncs the segment courses, deletes courses that have no segment, and rebuilds the start groups."
        saved={data.saved}
        base={base}
        removing={removal(removing.segment, (r) => ({
          target: `segment:${r.id}`,
          title: `Delete the segment “${r.name}”?`,
          explanation: "Its course and start groups are deleted, and course groups stop listing it. Reads already sent are kept.",
          label: "Delete segment",
        }))}
      >
        {editing.segment ? (
          <>
            <p>
              <Link to={base}>← All segments</Link>
            </p>
            <h3>{editing.segment.name}</h3>
            <SegmentForm segment={editing.segment} points={data.points} nextName={data.nextName} />
          </>
        ) : (
          <>
            <SegmentTable raceId={data.raceId} segments={data.segments} mayEdit={data.may.edit} />
            <AddSection id="new-segment-heading" heading="Add a segment" shown={data.may.edit}>
              {data.points.length === 0 ? (
                <NoneYet what="timing points" to={`/race/${data.raceId}/admin/points`} label="Add the start and finish points" />
              ) : (
                <SegmentForm segment={null} points={data.points} nextName={data.nextName} />
              )}
            </AddSection>
          </>
        )}
      </SetupSection>

      <SetupSection
        id="course-groups"
        title="Course groups"
        hint="A course group is a group of racers who complete all the same segments in the same order. A racer is in the group their course names; else the first group whose condition they meet; else, when there is only one group, that one."
        saved={null}
        base={base}
        removing={removal(removing.group, (r) => ({
          target: `group:${r.id}`,
          title: `Delete the course group “${r.name}”?`,
          explanation: "Racers in it are left without a course group until they are given another.",
          label: "Delete course group",
        }))}
      >
        {editing.group ? (
          <>
            <p>
              <Link to={base}>← All course groups</Link>
            </p>
            <h3>{editing.group.name}</h3>
            <GroupForm group={editing.group} segments={data.segments} fields={data.criterionFields} />
          </>
        ) : (
          <>
            <SetupTable
              items={data.groups}
              keyOf={(g) => g.id}
              empty="No course groups yet."
              columns={[
                { header: "Course group", cell: (g) => g.name },
                { header: "Order", cell: (g) => SEGMENT_ORDER_LABELS[g.segment_order_type] },
                { header: "Segments", cell: (g) => g.segments },
                { header: "Condition", cell: (g) => g.condition || <span className="empty-state">None</span> },
              ]}
              actions={(g) => <RowLinks base={base} id={`group:${g.id}`} name={g.name} mayEdit={data.may.edit} />}
            />
            <AddSection id="new-group-heading" heading="Add a course group" shown={data.may.edit}>
              <GroupForm group={null} segments={data.segments} fields={data.criterionFields} />
            </AddSection>
          </>
        )}
      </SetupSection>

      <SetupSection
        id="meta-start-groups"
        title="Meta start groups"
        hint="Waves of racers who may start together. The start groups are rebuilt as one per segment for each meta start group; racers name theirs on their page."
        saved={null}
        base={base}
        removing={removal(removing.wave, (r) => ({
          target: `wave:${r.id}`,
          title: `Delete the meta start group “${r.name}”?`,
          explanation: "Its start groups are deleted, and racers in it are left without one.",
          label: "Delete meta start group",
        }))}
      >
        {editing.wave ? (
          <>
            <p>
              <Link to={base}>← All meta start groups</Link>
            </p>
            <h3>{editing.wave.name}</h3>
            <WaveForm wave={editing.wave} />
          </>
        ) : (
          <>
            <SetupTable
              items={data.waves}
              keyOf={(w) => w.id}
              empty="No meta start groups: every racer may ride from the race's start."
              columns={[
                { header: "Meta start group", cell: (w) => w.name },
                { header: "First start", cell: (w) => w.first_start_time },
                { header: "Interval (s)", cell: (w) => w.start_interval },
              ]}
              actions={(w) => <RowLinks base={base} id={`wave:${w.id}`} name={w.name} mayEdit={data.may.edit} />}
            />
            <AddSection id="new-wave-heading" heading="Add a meta start group" shown={data.may.edit}>
              <WaveForm wave={null} />
            </AddSection>
          </>
        )}
      </SetupSection>
    </>
  );
}

function SegmentTable({ raceId, segments, mayEdit }: { raceId: string; segments: SegmentView[]; mayEdit: boolean }) {
  const base = `/race/${raceId}/admin/segments`;
  return (
    <ReorderableTable
      rows={segments}
      mayEdit={mayEdit}
      intent="segment-move"
      action={base}
      nameOf={(s) => s.name}
      empty="No segments yet. Add the first one below."
      className="segment-table"
      headers={["Segment", "Start", "Finish", "Minimum time (s)"]}
      numeric={["Minimum time (s)"]}
      rowData={(s) => ({ "data-segment-id": s.id })}
      cells={(s) => [s.name, s.start, s.finish, s.min_time]}
      links={(s) => <RowLinks base={base} id={`segment:${s.id}`} name={s.name} mayEdit />}
    />
  );
}

function SegmentForm({ segment, points, nextName }: { segment: SegmentView | null; points: { value: string; label: string }[]; nextName: string }) {
  const intent = segment ? "segment-save" : "segment-create";
  const { errors, values } = useReplyFor(intent, segment?.id ?? null);
  const v = (name: "name" | "start_point" | "finish_point" | "min_time") => values?.[name] ?? segment?.[name] ?? "";
  return (
    <SetupForm intent={intent} target={segment?.id ?? null} label={segment ? "Save segment" : "Add segment"} busyLabel="Saving…" errors={errors}>
      <TextField
        id={`${intent}-name`}
        name="name"
        label="Name"
        maxLength={200}
        placeholder={segment ? undefined : nextName}
        hint={segment ? undefined : `Leave empty for “${nextName}”.`}
        defaultValue={v("name")}
        error={errors.name}
      />
      <SelectField
        id={`${intent}-start`}
        name="start_point"
        label="Start point"
        defaultValue={v("start_point") || points[0]?.value}
        error={errors.start_point}
        choices={points}
      />
      <SelectField
        id={`${intent}-finish`}
        name="finish_point"
        label="Finish point"
        defaultValue={v("finish_point") || points[1]?.value || points[0]?.value}
        error={errors.finish_point}
        choices={points}
      />
      <TextField
        id={`${intent}-min`}
        name="min_time"
        label="Minimum time (seconds)"
        inputMode="decimal"
        hint="A finish read sooner than this after the start is not a run (a double read, a short cut)."
        defaultValue={v("min_time")}
        error={errors.min_time}
      />
    </SetupForm>
  );
}

function GroupForm({ group, segments, fields }: { group: GroupView | null; segments: SegmentView[]; fields: { value: string; label: string }[] }) {
  const intent = group ? "group-save" : "group-create";
  const { errors, values } = useReplyFor(intent, group?.id ?? null);
  const v = (name: "name" | "segment_order_type" | "criterion_field" | "criterion_op" | "criterion_value") => values?.[name] ?? group?.[name] ?? "";
  const checked = (id: string) => (values ? values[`segment_${id}`] === "on" : (group?.segmentIds.includes(id) ?? false));
  return (
    <SetupForm intent={intent} target={group?.id ?? null} label={group ? "Save course group" : "Add course group"} busyLabel="Saving…" errors={errors}>
      <TextField
        id={`${intent}-name`}
        name="name"
        label="Name"
        required
        maxLength={200}
        placeholder="Long course"
        defaultValue={v("name")}
        error={errors.name}
      />
      <RadioField
        name="segment_order_type"
        legend="Racers ride the segments"
        defaultValue={v("segment_order_type") || "any"}
        error={errors.segment_order_type}
        choices={SEGMENT_ORDER_TYPES.map((t) => ({ value: t, label: SEGMENT_ORDER_LABELS[t] }))}
      />
      <fieldset className="setup-group">
        <legend>Segments</legend>
        <p className="field-hint">Leave every box empty for every segment.</p>
        {segments.length === 0 ? (
          <p className="empty-state">No segments yet.</p>
        ) : (
          segments.map((s) => (
            <CheckboxField key={s.id} id={`${intent}-segment-${s.id}`} name={`segment_${s.id}`} label={s.name} defaultChecked={checked(s.id)} />
          ))
        )}
      </fieldset>
      <SelectField
        id={`${intent}-field`}
        name="criterion_field"
        label="Racers whose field"
        hint="Optional: racers with no course group of their own join the first group whose condition they meet."
        defaultValue={v("criterion_field")}
        error={errors.criterion_field}
        choices={[{ value: "", label: "No condition" }, ...fields]}
      />
      <SelectField
        id={`${intent}-op`}
        name="criterion_op"
        label="Condition"
        defaultValue={v("criterion_op") || "eq"}
        error={errors.criterion_op}
        choices={CRITERION_OPS}
      />
      <TextField
        id={`${intent}-value`}
        name="criterion_value"
        label="Value"
        maxLength={200}
        defaultValue={v("criterion_value")}
        error={errors.criterion_value}
      />
    </SetupForm>
  );
}

function WaveForm({ wave }: { wave: WaveView | null }) {
  const intent = wave ? "wave-save" : "wave-create";
  const { errors, values } = useReplyFor(intent, wave?.id ?? null);
  const v = (name: "name" | "first_start_time" | "start_interval") => values?.[name] ?? wave?.[name] ?? "";
  return (
    <SetupForm intent={intent} target={wave?.id ?? null} label={wave ? "Save meta start group" : "Add meta start group"} busyLabel="Saving…" errors={errors}>
      <TextField id={`${intent}-name`} name="name" label="Name" required maxLength={200} placeholder="Wave 1" defaultValue={v("name")} error={errors.name} />
      <TextField
        id={`${intent}-start`}
        name="first_start_time"
        label="First start"
        placeholder="HH:MM:SS"
        hint="Time of day on race day. Optional."
        defaultValue={v("first_start_time")}
        error={errors.first_start_time}
      />
      <TextField
        id={`${intent}-interval`}
        name="start_interval"
        label="Start interval (seconds)"
        inputMode="decimal"
        hint="Optional."
        defaultValue={v("start_interval")}
        error={errors.start_interval}
      />
    </SetupForm>
  );
}

export const ErrorBoundary = () => <ErrorPage {...RACE_SETUP_ERRORS} />;
