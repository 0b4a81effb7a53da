import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { requireRaceAccess } from "../../race-admin.server";
import { engineCourseDocs } from "../../../schema/race/free-order";
import type { RaceSettings } from "../../../schema/race/settings";
import { afterSave, pageQuery, pageUrl, parseForm, readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import {
  criterionFields,
  formatFormSchema,
  formatKindOf,
  groupableFields,
  offeredGroupTypes,
  racerFieldsOf,
  resultGroupFormSchema,
} from "../../race-setup.server";
import { documentsOf, requireDocument, saveDocumentIntent } from "../../race-documents.server";
import { exactSeconds } from "../../../core/time/format";
import { AGE_BASIS_LABELS, CRITERION_OPS, GROUP_TYPE_LABELS, GROUP_TYPES } from "../../components/race-setup-choices";
import {
  CheckboxField,
  ConfirmPanel,
  RadioField,
  removal,
  RowLinks,
  SelectField,
  SetupForm,
  SetupSection,
  TextField,
  useReplyFor,
} from "../../components/form-kit";
import { AddSection, SetupTable } from "../../components/setup-table";
import { ErrorPage, RACE_SETUP_ERRORS } from "../../components/error-page";
import { CATEGORY_GROUPS_NOT_FOR_HEATS } from "../../../core/timing/category-groups";
import { ageCriterionText, birthDateFields, categoryGroupsFormSchema, createCategoryGroups } from "../../category-groups.server";

const KIND_LABELS = { public: "Public", unlisted: "Unlisted", announcer: "Announcer (system)", live: "Live (system)" } as const;
const KIND_HINTS = { public: "listed on the race's page", unlisted: "anyone with the link", announcer: "race staff only", live: "race staff only" } as const;
const GROUP_TYPE_HINTS: Record<(typeof GROUP_TYPES)[number], string> = {
  all: "one course, no heats",
  course: "several courses",
  startgroup: "not exactly one start group, or heats",
  field: "one group per value of a racer field",
};

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { race, room, may } = await requireRaceAccess(request, context, params.id, "view");
  const [formats, groups, storedCourses, startGroups, settings] = await Promise.all([
    documentsOf(room, "ResultFormat"),
    documentsOf(room, "ResultGroup"),
    documentsOf(room, "Course"),
    documentsOf(room, "StartGroup"),
    room.settings(),
  ]);
  if (!settings) throw new Response("Not found", { status: 404 });
  // Results group by course groups in a free-order race (timing.md section 2: one list only with one course group).
  const courses = engineCourseDocs(settings as RaceSettings, storedCourses);
  const query = pageQuery(request);
  const params_ = new URL(request.url).searchParams;
  const custom = racerFieldsOf(settings.fields_list);
  const courseName = new Map(courses.map((c) => [c.id, c.data.name]));
  const startGroupName = new Map(startGroups.map((g) => [g.id, g.data.name || `Start group ${g.ordinal}`]));
  const fieldLabel = new Map(criterionFields(custom).map((f) => [f.value, f.label]));
  const opLabel = new Map<string, string>(CRITERION_OPS.map((o) => [o.value, o.label]));
  const view = formats.map((f) => ({
    id: f.id,
    name: f.data.name,
    kind: formatKindOf(f.data) ?? "announcer",
    display_precision: f.data.display_precision,
    display_diffs: f.data.display_diffs,
    same_time_threshold: exactSeconds(f.data.same_time_threshold),
    group_type: f.data.group_type,
    group_field: f.data.group_field ?? "",
    publicUrl: `/races/${race.id}?format=${f.id}`,
    announcerUrl: f.data.is_announcer ? `/races/${race.id}/announcer?format=${f.id}` : null,
    groups: groups
      .filter((g) => g.data.format === f.id)
      .map((g) => ({
        id: g.id,
        name: g.data.name,
        course: g.data.course ? (courseName.get(g.data.course) ?? "(missing course)") : "Any",
        startGroup: g.data.startgroup ? (startGroupName.get(g.data.startgroup) ?? "(missing start group)") : "Any",
        criteria: g.data.criteria_list
          .map((c) =>
            c.op === "age"
              ? `${fieldLabel.get(c.field) ?? (c.field === "dob" ? "Date of birth" : c.field)} ${ageCriterionText(c)}`
              : `${fieldLabel.get(c.field) ?? c.field} ${opLabel.get(c.op) ?? c.op}${c.value === null ? "" : ` ${String(c.value)}`}`,
          )
          .join("; "),
      })),
  }));
  const find = (id: string | null) => (may.edit ? (view.find((f) => f.id === id) ?? null) : null);
  const editing = find(query.edit);
  return {
    raceId: race.id,
    may,
    saved: query.saved,
    formats: view,
    editing,
    removing: find(query.remove),
    removingGroup: editing?.groups.find((g) => g.id === params_.get("deleteGroup")) ?? null,
    offered: offeredGroupTypes({ courses: courses.length, startGroups: startGroups.length, isHeats: settings.is_heats }),
    groupFields: groupableFields(custom),
    birthFields: birthDateFields(custom),
    notForHeats: settings.is_heats ? CATEGORY_GROUPS_NOT_FOR_HEATS : null,
    criterionFields: criterionFields(custom),
    courses: courses.map((c) => ({ value: c.id, label: c.data.name })),
    startGroups: [...startGroupName].map(([value, label]) => ({ value, label })),
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { race, room, author } = await requireRaceAccess(request, context, params.id, "edit");
  const posted = await readPostedForm(request);
  const base = `/race/${race.id}/admin/formats`;
  if (posted.intent === "create" || posted.intent === "save") {
    return saveDocumentIntent({ room, author }, "ResultFormat", posted, base, formatFormSchema);
  }
  if (posted.intent === "delete-group") {
    const group = requireDocument(await documentsOf(room, "ResultGroup"), posted.target);
    await room.deleteDocument("ResultGroup", group.id, author);
    return redirect(pageUrl(base, "deleted", group.data.format));
  }
  const format = requireDocument(await documentsOf(room, "ResultFormat"), posted.target);
  if (posted.intent === "delete") {
    await room.deleteDocument("ResultFormat", format.id, author);
    return redirect(pageUrl(base, "deleted"));
  }
  if (posted.intent === "create-groups") {
    const parsed = parseForm(categoryGroupsFormSchema, posted);
    if (!parsed.ok) return parsed.reply;
    const settings = await room.settings();
    const created = await createCategoryGroups({ room, author }, format.id, parsed.value, racerFieldsOf(settings?.fields_list ?? []));
    return afterSave(posted, created, pageUrl(base, "grouped", format.id));
  }
  if (posted.intent === "add-group") {
    const parsed = parseForm(resultGroupFormSchema, posted);
    if (!parsed.ok) return parsed.reply;
    const [courses, startGroups] = await Promise.all([documentsOf(room, "Course"), documentsOf(room, "StartGroup")]);
    if (parsed.value.course && !courses.some((c) => c.id === parsed.value.course)) return refuse(posted, { course: "Choose a course" });
    if (parsed.value.startgroup && !startGroups.some((g) => g.id === parsed.value.startgroup)) return refuse(posted, { startgroup: "StartGroup not found" });
    const result = await room.saveDocument("ResultGroup", null, { ...parsed.value, format: format.id }, author);
    return afterSave(posted, result, pageUrl(base, "added", format.id));
  }
  return unknownIntent(posted);
}

type LoaderData = Awaited<ReturnType<typeof loader>>;
type FormatView = LoaderData["formats"][number];

export default function ResultFormats() {
  const data = useLoaderData<typeof loader>();
  const base = `/race/${data.raceId}/admin/formats`;
  return (
    <SetupSection
      id="formats"
      title="Result formats"
      hint="A result format is one way of showing the results: who sees it, how times look and how racers are grouped."
      saved={data.saved}
      base={base}
      removing={removal(data.removing, (r) => ({
        title: `Delete the result format “${r.name}”?`,
        explanation: "Its result groups are deleted with it, and its results page stops working. Racers and times are not touched.",
        label: "Delete result format",
      }))}
    >
      {data.editing ? (
        <FormatEditor format={data.editing} data={data} base={base} />
      ) : (
        <>
          <SetupTable
            items={data.formats}
            keyOf={(f) => f.id}
            empty="No result formats yet."
            columns={[
              { header: "Result format", cell: (f) => f.name },
              { header: "Who sees it", cell: (f) => KIND_LABELS[f.kind] },
              {
                header: "Groups",
                cell: (f) => (f.groups.length > 0 ? `${f.groups.length} result group${f.groups.length === 1 ? "" : "s"}` : GROUP_TYPE_LABELS[f.group_type]),
              },
              {
                header: "Page",
                cell: (f) => (
                  <>
                    <a href={f.publicUrl}>Results page</a>
                    {f.announcerUrl ? (
                      <>
                        {" · "}
                        <a href={f.announcerUrl}>Announcer screen</a>
                      </>
                    ) : null}
                  </>
                ),
              },
            ]}
            actions={(f) => <RowLinks base={base} id={f.id} name={f.name} mayEdit={data.may.edit} />}
          />
          <AddSection id="new-format-heading" heading="Add a result format" shown={data.may.edit}>
            <FormatForm format={null} data={data} />
          </AddSection>
        </>
      )}
    </SetupSection>
  );
}

function FormatForm({ format, data }: { format: FormatView | null; data: LoaderData }) {
  const intent = format ? "save" : "create";
  const { errors, values } = useReplyFor(intent, format?.id ?? null);
  const v = (name: string, stored: string | number | undefined) => values?.[name] ?? String(stored ?? "");
  const currentType = format?.group_type ?? null;
  return (
    <SetupForm intent={intent} target={format?.id ?? null} label={format ? "Save result format" : "Add result format"} busyLabel="Saving…" errors={errors}>
      <TextField name="name" label="Name" required maxLength={200} placeholder="Results" defaultValue={v("name", format?.name)} error={errors.name} />
      <RadioField
        name="kind"
        legend="Who sees it"
        hint="Announcer and live formats are system formats for race staff."
        defaultValue={v("kind", format?.kind ?? "public")}
        error={errors.kind}
        choices={(Object.keys(KIND_LABELS) as (keyof typeof KIND_LABELS)[]).map((k) => ({ value: k, label: KIND_LABELS[k], hint: KIND_HINTS[k] }))}
      />
      <SelectField
        name="display_precision"
        label="Display precision"
        hint="Decimals of a second shown."
        defaultValue={v("display_precision", format?.display_precision ?? 1)}
        error={errors.display_precision}
        choices={[0, 1, 2, 3, 4, 5, 6].map((n) => ({ value: String(n), label: String(n) }))}
      />
      <CheckboxField
        name="display_diffs"
        label="Show time behind the leader"
        defaultChecked={values ? values.display_diffs === "on" : (format?.display_diffs ?? true)}
      />
      <TextField
        name="same_time_threshold"
        label="Same-time threshold (seconds)"
        inputMode="decimal"
        hint="Leave empty to use the race's."
        defaultValue={v("same_time_threshold", format?.same_time_threshold)}
        error={errors.same_time_threshold}
      />
      <RadioField
        name="group_type"
        legend="How racers are grouped"
        hint={format && format.groups.length > 0 ? "This format has result groups of its own (below); they are used instead." : undefined}
        defaultValue={v("group_type", currentType ?? (data.offered.all ? "all" : "course"))}
        error={errors.group_type}
        choices={GROUP_TYPES.map((t) => ({
          value: t,
          label: GROUP_TYPE_LABELS[t],
          hint: GROUP_TYPE_HINTS[t],
          disabled: !data.offered[t] && t !== currentType,
        }))}
      />
      <SelectField
        name="group_field"
        label="Racer field to group by"
        hint="For Create New Result Groups: one group per value."
        defaultValue={v("group_field", format?.group_field)}
        error={errors.group_field}
        choices={[{ value: "", label: "Choose a field" }, ...data.groupFields]}
      />
    </SetupForm>
  );
}

function FormatEditor({ format, data, base }: { format: FormatView; data: LoaderData; base: string }) {
  const { errors, values } = useReplyFor("add-group", format.id);
  const editBase = `${base}?edit=${format.id}`;
  return (
    <>
      <p>
        <Link to={base}>← All result formats</Link>
      </p>
      <h3>{format.name}</h3>
      <p>
        <a href={format.publicUrl}>Open the results page of this format</a>
      </p>
      <FormatForm format={format} data={data} />

      <section aria-labelledby="groups-heading">
        <h3 id="groups-heading">Result groups of this format</h3>
        <p className="hint">Groups you define here replace the grouping above. Each group ranks the racers who match all its conditions.</p>
        {data.removingGroup ? (
          <ConfirmPanel
            title={`Delete the result group “${data.removingGroup.name}”?`}
            explanation="Its racers are no longer ranked in this format unless another group takes them."
            intent="delete-group"
            target={data.removingGroup.id}
            label="Delete result group"
            busyLabel="Deleting…"
            cancelTo={editBase}
          />
        ) : null}
        <SetupTable
          items={format.groups}
          keyOf={(g) => g.id}
          empty="No result groups yet."
          columns={[
            { header: "Group", cell: (g) => g.name },
            { header: "Course", cell: (g) => g.course },
            { header: "Start group", cell: (g) => g.startGroup },
            { header: "Criteria", cell: (g) => g.criteria || "None" },
          ]}
          actions={(g) => (
            <Link to={`${editBase}&deleteGroup=${g.id}`} aria-label={`Delete ${g.name}`} className="danger-link">
              Delete…
            </Link>
          )}
        />
        <CategoryGroupsForm format={format} data={data} />
        <h4>Add a result group</h4>
        <SetupForm intent="add-group" target={format.id} label="Add result group" busyLabel="Adding…" errors={errors}>
          <TextField
            id="group-name"
            name="name"
            label="Name"
            required
            maxLength={200}
            placeholder="Women 40+"
            defaultValue={values?.name}
            error={errors.name}
          />
          <SelectField
            id="group-course"
            name="course"
            label="Course"
            defaultValue={values?.course}
            error={errors.course}
            choices={[{ value: "", label: "Any course" }, ...data.courses]}
          />
          <SelectField
            id="group-startgroup"
            name="startgroup"
            label="Start group"
            defaultValue={values?.startgroup}
            error={errors.startgroup}
            choices={[{ value: "", label: "Any start group" }, ...data.startGroups]}
          />
          <fieldset className="setup-group">
            <legend>Racers whose…</legend>
            <SelectField
              id="group-field"
              name="criterion_field"
              label="Field"
              defaultValue={values?.criterion_field}
              error={errors.criterion_field}
              choices={[{ value: "", label: "No condition" }, ...data.criterionFields]}
            />
            <SelectField
              id="group-op"
              name="criterion_op"
              label="Condition"
              defaultValue={values?.criterion_op ?? "eq"}
              error={errors.criterion_op}
              choices={CRITERION_OPS}
            />
            <TextField
              id="group-value"
              name="criterion_value"
              label="Value"
              maxLength={200}
              defaultValue={values?.criterion_value}
              error={errors.criterion_value}
            />
          </fieldset>
        </SetupForm>
      </section>
    </>
  );
}

/** "Create New Result Groups": one action makes a group per field value or per age class, optionally by sex. */
function CategoryGroupsForm({ format, data }: { format: FormatView; data: LoaderData }) {
  const { errors, values } = useReplyFor("create-groups", format.id);
  return (
    <section aria-labelledby="category-groups-heading">
      <h4 id="category-groups-heading">Create result groups from racer fields</h4>
      {data.notForHeats ? (
        <p className="hint">{data.notForHeats}</p>
      ) : (
        <SetupForm intent="create-groups" target={format.id} label="Create result groups" busyLabel="Creating…" errors={errors}>
          <p className="hint">Groups are ranked live like any other. Creating again replaces groups of the same name and adds the new ones.</p>
          <RadioField
            id="category-source"
            name="source"
            legend="Groups from"
            defaultValue={values?.source ?? "age"}
            error={errors.source}
            choices={[
              { value: "age", label: "Age classes", hint: "one group per class you type below" },
              { value: "field", label: "A racer field", hint: "one group per value racers have now" },
            ]}
          />
          <SelectField
            id="category-field"
            name="field"
            label="Racer field"
            defaultValue={values?.field}
            error={errors.field}
            choices={[{ value: "", label: "Choose a field" }, ...data.groupFields]}
          />
          <TextField
            id="category-classes"
            name="age_classes"
            label="Age classes"
            maxLength={500}
            hint="For example: U10, U12, U14, U16, 17-19, 20-34, every 5 from 35 (35–39 … 75–79, then 80+)."
            defaultValue={values?.age_classes}
            error={errors.age_classes}
          />
          <SelectField
            id="category-birth-field"
            name="birth_field"
            label="Birth date from"
            defaultValue={values?.birth_field ?? "dob"}
            error={errors.birth_field}
            choices={data.birthFields}
          />
          <RadioField
            id="category-basis"
            name="age_basis"
            legend="Age counted"
            defaultValue={values?.age_basis ?? "race_day"}
            error={errors.age_basis}
            choices={(Object.keys(AGE_BASIS_LABELS) as (keyof typeof AGE_BASIS_LABELS)[]).map((k) => ({ value: k, ...AGE_BASIS_LABELS[k] }))}
          />
          <CheckboxField
            id="category-by-sex"
            name="by_sex"
            label="Split each group into women and men"
            defaultChecked={values ? values.by_sex === "on" : true}
          />
        </SetupForm>
      )}
    </section>
  );
}

export const ErrorBoundary = () => <ErrorPage {...RACE_SETUP_ERRORS} />;
