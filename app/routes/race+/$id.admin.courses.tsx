import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { requireRaceAccess } from "../../race-admin.server";
import { afterSave, pageQuery, pageUrl, parseForm, readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import { courseChangesOf, courseFormSchema, coursePointFormSchema, moved, moveFormSchema } from "../../race-setup.server";
import { deleteDocumentIntent, documentsOf, requireDocument, saveDocumentIntent } from "../../race-documents.server";
import { raceClockOf, timeOfDayText } from "../../race-clock.server";
import { exactSeconds } from "../../../core/time/format";
import { defaultRangePattern } from "../../../core/timing/biathlon";
import { enduroSegments } from "../../../core/timing/enduro";
import { POINT_MODE_CHOICES, RANGE_ROLE_CHOICES, SECTION_CHOICES } from "../../components/race-setup-choices";
import { NoneYet, removal, RowButton, RowLinks, SelectField, SetupForm, SetupSection, TextAreaField, TextField, useReplyFor } from "../../components/form-kit";
import { AddSection, SetupTable } from "../../components/setup-table";
import { ErrorPage, RACE_SETUP_ERRORS } from "../../components/error-page";

/** The enduro segments of stored course points. */
function enduroSegmentsOf(points: readonly { id: string; point: string; mode: "start" | "chipstart" | "lap" | "split"; name: string; min_split: number }[]) {
  return enduroSegments({ points: points.map((p) => ({ id: p.id, timingPointId: p.point, mode: p.mode, name: p.name, minSplit: p.min_split })) });
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { race, room, may } = await requireRaceAccess(request, context, params.id, "view");
  const [courses, points, settings] = await Promise.all([documentsOf(room, "Course"), documentsOf(room, "TimingPoint"), room.settings()]);
  const clock = raceClockOf(race);
  const query = pageQuery(request);
  const pointName = new Map(points.map((p) => [p.id, p.data.name]));
  const view = courses.map((c) => ({
    id: c.id,
    name: c.data.name,
    description: c.data.description,
    lap_count: c.data.lap_count,
    max_lap_count: c.data.max_lap_count,
    end_time: timeOfDayText(c.data.end_time, clock),
    course_distance_km: c.data.course_distance_km,
    lap_distance_km: c.data.lap_distance_km,
    swim_lap_count: c.data.swim_lap_count,
    bike_lap_count: c.data.bike_lap_count,
    run_lap_count: c.data.run_lap_count,
    range: c.data.range,
    biathlon_penalty: c.data.biathlon_penalty === null ? null : exactSeconds(c.data.biathlon_penalty),
    min_penalty_loop_seconds: c.data.min_penalty_loop_seconds,
    points: c.data.points_list.map((p) => ({
      id: p.id,
      name: p.name,
      mode: p.mode,
      section: p.section,
      rangeRole: p.range_role,
      timingPoint: pointName.get(p.point) ?? "(missing timing point)",
      min_split: exactSeconds(p.min_split),
    })),
    // Enduro: the timed segments the points make (a start and the point after it).
    segments: enduroSegmentsOf(c.data.points_list).map((s) => ({
      name: s.name,
      start: pointName.get(s.startTimingPointId) ?? "",
      finish: pointName.get(s.finishTimingPointId) ?? "",
      minTime: exactSeconds(s.minTime),
    })),
  }));
  return {
    raceId: race.id,
    may,
    saved: query.saved,
    courses: view,
    editing: may.edit ? (view.find((c) => c.id === query.edit) ?? null) : null,
    removing: may.edit ? (view.find((c) => c.id === query.remove) ?? null) : null,
    timingPoints: points.map((p) => ({ value: p.id, label: p.data.name })),
    isBiathlon: (settings?.biathlon_penalty_type ?? null) !== null,
    isEnduro: settings?.timing_mode === "enduro",
    isFreeOrder: settings?.is_free_segment === true,
    raceLapCount: settings?.lap_count ?? 1,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { race, room, author } = await requireRaceAccess(request, context, params.id, "edit");
  const posted = await readPostedForm(request);
  const base = `/race/${race.id}/admin/courses`;
  if (posted.intent === "create" || posted.intent === "save") {
    return saveDocumentIntent({ room, author }, "Course", posted, base, courseFormSchema, (value) => courseChangesOf(value, raceClockOf(race)));
  }
  const course = requireDocument(await documentsOf(room, "Course"), posted.target);
  if (posted.intent === "delete") return deleteDocumentIntent({ room, author }, "Course", posted, base, course.id);
  const points = course.data.points_list;
  if (posted.intent === "add-point") {
    const parsed = parseForm(coursePointFormSchema, posted);
    if (!parsed.ok) return parsed.reply;
    const timingPoint = (await documentsOf(room, "TimingPoint")).find((p) => p.id === parsed.value.point);
    if (!timingPoint) return refuse(posted, { point: "Choose a timing point" });
    // A crossing with no name of its own is called after its timing point in results.
    const entry = {
      id: crypto.randomUUID(),
      point: timingPoint.id,
      mode: parsed.value.mode,
      name: parsed.value.name || timingPoint.data.name,
      min_split: parsed.value.min_split,
      section: parsed.value.section,
      range_role: parsed.value.range_role,
    };
    return afterSave(posted, await room.saveDocument("Course", course.id, { points_list: [...points, entry] }, author), pageUrl(base, "added", course.id));
  }
  if (posted.intent === "move-point" || posted.intent === "remove-point") {
    const parsed = parseForm(moveFormSchema, posted);
    if (!parsed.ok || parsed.value.index >= points.length)
      return refuse(posted, { form: "That point is no longer on the course. The page now shows the current list." }, 409);
    const { index, direction } = parsed.value;
    const next = posted.intent === "move-point" ? moved(points, index, direction ?? "up") : points.filter((_, i) => i !== index);
    return afterSave(
      posted,
      await room.saveDocument("Course", course.id, { points_list: next }, author),
      pageUrl(base, posted.intent === "move-point" ? "moved" : "removed", course.id),
    );
  }
  return unknownIntent(posted);
}

type CourseView = Awaited<ReturnType<typeof loader>>["courses"][number];

export default function Courses() {
  const data = useLoaderData<typeof loader>();
  const base = `/race/${data.raceId}/admin/courses`;
  return (
    <SetupSection
      id="courses"
      title="Courses"
      saved={data.saved}
      base={base}
      removing={removal(data.removing, (r) => ({
        title: `Delete the course “${r.name}”?`,
        explanation: "Its timing points stay; only the course and its list of crossings go. Racers must be moved off it first.",
        label: "Delete course",
      }))}
    >
      {data.isFreeOrder ? (
        <p className="hint" role="note">
          This is a free-order race: its courses are kept in step with its <Link to={`/race/${data.raceId}/admin/segments`}>segments</Link>, one course per
          segment, and racers are placed in course groups there. Changes made here are replaced the next time the segments are saved.
        </p>
      ) : null}
      {data.editing ? (
        <CourseEditor
          course={data.editing}
          base={base}
          timingPoints={data.timingPoints}
          raceId={data.raceId}
          biathlon={data.isBiathlon ? { raceLapCount: data.raceLapCount } : null}
          isEnduro={data.isEnduro}
        />
      ) : (
        <>
          <SetupTable
            items={data.courses}
            keyOf={(c) => c.id}
            empty="No courses yet."
            columns={[
              { header: "Course", cell: (c) => c.name },
              {
                header: "Crossings",
                cell: (c) =>
                  c.points.length > 0 ? c.points.map((p) => `${p.name} (${p.mode})`).join(" → ") : <span className="empty-state">No points yet</span>,
              },
              { header: "Laps", cell: (c) => c.lap_count ?? "Race's" },
              { header: "Distance", cell: (c) => (c.course_distance_km !== null ? `${c.course_distance_km} km` : "") },
            ]}
            actions={(c) => <RowLinks base={base} id={c.id} name={c.name} mayEdit={data.may.edit} />}
          />
          <AddSection id="new-course-heading" heading="Add a course" shown={data.may.edit}>
            <CourseForm intent="create" course={null} biathlon={data.isBiathlon ? { raceLapCount: data.raceLapCount } : null} />
          </AddSection>
        </>
      )}
    </SetupSection>
  );
}

/** Set in a biathlon race: the course form shows its shooting fields. */
type BiathlonForm = { raceLapCount: number } | null;

function CourseForm({ intent, course, biathlon }: { intent: "create" | "save"; course: CourseView | null; biathlon: BiathlonForm }) {
  const { errors, values } = useReplyFor(intent, course?.id ?? null);
  const v = (name: keyof CourseView & string) => values?.[name] ?? (course?.[name] === null || course?.[name] === undefined ? "" : String(course[name]));
  return (
    <SetupForm intent={intent} target={course?.id ?? null} label={course ? "Save course" : "Add course"} busyLabel="Saving…" errors={errors}>
      <TextField name="name" label="Name" required maxLength={200} defaultValue={v("name")} error={errors.name} />
      <TextAreaField name="description" label="Description" maxLength={2000} defaultValue={v("description")} error={errors.description} />
      <TextField
        name="lap_count"
        label="Lap count"
        inputMode="numeric"
        hint="Leave empty to use the race's lap count."
        defaultValue={v("lap_count")}
        error={errors.lap_count}
      />
      <TextField
        name="max_lap_count"
        label="Maximum lap count"
        inputMode="numeric"
        hint="Time limit races: the most laps counted."
        defaultValue={v("max_lap_count")}
        error={errors.max_lap_count}
      />
      <TextField
        name="end_time"
        label="Time limit end (time of day)"
        placeholder="HH:MM:SS"
        hint="Time limit races: laps completed after this time of day on race day are not counted."
        defaultValue={v("end_time")}
        error={errors.end_time}
      />
      <TextField
        name="course_distance_km"
        label="Course distance (km)"
        inputMode="decimal"
        defaultValue={v("course_distance_km")}
        error={errors.course_distance_km}
      />
      <TextField name="lap_distance_km" label="Lap distance (km)" inputMode="decimal" defaultValue={v("lap_distance_km")} error={errors.lap_distance_km} />
      <fieldset>
        <legend>Triathlon sections</legend>
        <p className="hint">Laps of each section; 0 skips the section and the transition after it. Leave empty for 1.</p>
        <TextField name="swim_lap_count" label="Swim laps" inputMode="numeric" defaultValue={v("swim_lap_count")} error={errors.swim_lap_count} />
        <TextField name="bike_lap_count" label="Bike laps" inputMode="numeric" defaultValue={v("bike_lap_count")} error={errors.bike_lap_count} />
        <TextField name="run_lap_count" label="Run laps" inputMode="numeric" defaultValue={v("run_lap_count")} error={errors.run_lap_count} />
      </fieldset>
      {biathlon ? (
        <fieldset>
          <legend>Biathlon</legend>
          <TextField
            name="range"
            label="Range pattern"
            hint={`One letter per shooting: P prone, S standing. Leave empty for ${defaultRangePattern(Number(v("lap_count")) || biathlon.raceLapCount) || "none"}.`}
            defaultValue={v("range")}
            error={errors.range}
            maxLength={20}
          />
          <TextField
            name="biathlon_penalty"
            label="Penalty per missed shot (seconds)"
            inputMode="decimal"
            hint="Time penalties; with penalty laps, the cost of a loop not skied. Leave empty for 60."
            defaultValue={v("biathlon_penalty")}
            error={errors.biathlon_penalty}
          />
          <TextField
            name="min_penalty_loop_seconds"
            label="Minimum penalty loop (seconds)"
            inputMode="decimal"
            hint="Recorder reads closer together than this are one loop. Leave empty for 5."
            defaultValue={v("min_penalty_loop_seconds")}
            error={errors.min_penalty_loop_seconds}
          />
        </fieldset>
      ) : null}
    </SetupForm>
  );
}

function CourseEditor({
  course,
  base,
  timingPoints,
  raceId,
  biathlon,
  isEnduro,
}: {
  course: CourseView;
  base: string;
  timingPoints: { value: string; label: string }[];
  raceId: string;
  biathlon: BiathlonForm;
  isEnduro: boolean;
}) {
  const isBiathlon = biathlon !== null;
  const { errors, values } = useReplyFor("add-point", course.id);
  const moveError = useReplyFor("move-point", course.id).errors.form;
  const removeError = useReplyFor("remove-point", course.id).errors.form;
  const moveReply = moveError ?? removeError;
  return (
    <>
      <p>
        <Link to={base}>← All courses</Link>
      </p>
      <h3>{course.name}</h3>
      <CourseForm intent="save" course={course} biathlon={biathlon} />

      {isEnduro ? (
        <section aria-labelledby="segments-heading">
          <h3 id="segments-heading">Timed segments</h3>
          <p className="hint">
            Each Start (or Chip start) point and the point after it make a timed descent; the finish&apos;s minimum split is the minimum time for that segment.
            Points between one finish and the next start are on a transfer stage, not timed. A course is a course group: racers who complete all the same
            segments in the same order.
          </p>
          {course.segments.length === 0 ? (
            <p className="empty-state">No timed segments yet. Add a Start point, then its finish.</p>
          ) : (
            <ol className="segment-list">
              {course.segments.map((s) => (
                <li key={s.name}>{`${s.name}: ${s.start} → ${s.finish}, at least ${s.minTime} s`}</li>
              ))}
            </ol>
          )}
        </section>
      ) : null}

      <section aria-labelledby="points-heading">
        <h3 id="points-heading">Crossings on this course</h3>
        <p className="hint">In the order racers pass them. A lap point is the finish line of each lap.</p>
        {moveReply ? (
          <p className="form-error" role="alert">
            {moveReply}
          </p>
        ) : null}
        <SetupTable
          items={course.points}
          keyOf={(p) => p.id}
          empty="No points on this course yet."
          lead={{ header: "#", cell: (_, i) => i + 1 }}
          columns={[
            { header: "Name", cell: (p) => p.name },
            { header: "Timing point", cell: (p) => p.timingPoint },
            { header: "Mode", cell: (p) => POINT_MODE_CHOICES.find((m) => m.value === p.mode)?.label ?? p.mode },
            {
              header: "Section",
              cell: (p) => (
                <>
                  {SECTION_CHOICES.find((c) => c.value === String(p.section ?? ""))?.label}
                  {p.rangeRole ? ` · ${RANGE_ROLE_CHOICES.find((c) => c.value === p.rangeRole)?.label}` : ""}
                </>
              ),
            },
            { header: "Min split (s)", cell: (p) => p.min_split },
          ]}
          actions={(p, i) => (
            <>
              <RowButton
                intent="move-point"
                target={course.id}
                extra={{ index: String(i), direction: "up" }}
                label="↑ Up"
                accessibleLabel={`Move ${p.name} up`}
                disabled={i === 0}
              />
              <RowButton
                intent="move-point"
                target={course.id}
                extra={{ index: String(i), direction: "down" }}
                label="↓ Down"
                accessibleLabel={`Move ${p.name} down`}
                disabled={i === course.points.length - 1}
              />
              <RowButton intent="remove-point" target={course.id} extra={{ index: String(i) }} label="Remove" accessibleLabel={`Remove ${p.name}`} />
            </>
          )}
        />
        <h4>Add a point</h4>
        {timingPoints.length === 0 ? (
          <NoneYet what="timing points" to={`/race/${raceId}/admin/points`} label="Add a timing point" />
        ) : (
          <SetupForm intent="add-point" target={course.id} label="Add point" busyLabel="Adding…" errors={errors}>
            <SelectField
              id="point-point"
              name="point"
              label="Timing point"
              defaultValue={values?.point ?? timingPoints[0]?.value}
              error={errors.point}
              choices={timingPoints}
            />
            <SelectField
              id="point-mode"
              name="mode"
              label="Mode"
              defaultValue={values?.mode ?? (course.points.length === 0 ? "start" : "lap")}
              error={errors.mode}
              choices={POINT_MODE_CHOICES}
            />
            {isBiathlon ? (
              <SelectField
                id="point-range-role"
                name="range_role"
                label="Shooting range"
                hint="Biathlon: where racers enter or leave the range, so range time can be measured."
                defaultValue={values?.range_role ?? ""}
                error={errors.range_role}
                choices={RANGE_ROLE_CHOICES}
              />
            ) : null}
            <SelectField
              id="point-section"
              name="section"
              label="Triathlon section"
              hint="Triathlon races only: the section this point ends a lap of, or the transition it ends."
              defaultValue={values?.section ?? ""}
              error={errors.section}
              choices={SECTION_CHOICES}
            />
            <TextField
              id="point-name"
              name="name"
              label="Name"
              hint="Shown in results; leave empty to use the timing point's name."
              maxLength={200}
              defaultValue={values?.name}
              error={errors.name}
            />
            <TextField
              id="point-min-split"
              name="min_split"
              label="Minimum split (seconds)"
              inputMode="decimal"
              hint="Reads closer together than this at the point are one pass. Default 10."
              defaultValue={values?.min_split ?? "10"}
              error={errors.min_split}
            />
          </SetupForm>
        )}
      </section>
    </>
  );
}

export const ErrorBoundary = () => <ErrorPage {...RACE_SETUP_ERRORS} />;
