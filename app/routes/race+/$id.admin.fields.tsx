import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { isInvalid } from "../../../core/time/parse";
import { CUSTOM_FIELD_TYPES, type CustomFieldType } from "../../../core/timing/racer-fields";
import { requireRaceAccess } from "../../race-admin.server";
import { afterSave, pageQuery, pageUrl, parseForm, readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import { newRacerField, newRacerFieldFormSchema, racerFieldFormSchema, racerFieldsOf, type RacerField } from "../../race-setup.server";
import { CheckboxField, ConfirmPanel, SavedNotice, SelectField, SetupForm, TextAreaField, TextField, useReplyFor } from "../../components/form-kit";
import { AddSection, SetupTable } from "../../components/setup-table";
import { ErrorPage, RACE_SETUP_ERRORS } from "../../components/error-page";

const TYPE_LABELS: Record<CustomFieldType, string> = {
  text: "Text",
  number: "Number",
  option: "Option (one of a list)",
  bib: "Bib",
  time: "Time",
  seconds: "Seconds",
  date: "Date",
  gender: "Gender (M or F)",
  boolean: "Yes or no",
  checkbox: "Checkbox",
  category: "Category (racer is in it or not)",
};

async function readFields(room: Awaited<ReturnType<typeof requireRaceAccess>>["room"]) {
  const settings = await room.settings();
  if (!settings) throw new Response("Not found", { status: 404 });
  return { stored: settings.fields_list, fields: racerFieldsOf(settings.fields_list) };
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { race, room, may } = await requireRaceAccess(request, context, params.id, "view");
  const { fields } = await readFields(room);
  const query = pageQuery(request);
  const addedKey = new URL(request.url).searchParams.get("key");
  const added = addedKey ? (fields.find((f) => f.key === addedKey) ?? null) : null;
  const find = (key: string | null) => (may.edit ? (fields.find((f) => f.key === key) ?? null) : null);
  return { raceId: race.id, may, saved: added ? null : query.saved, added, fields, editing: find(query.edit), removing: find(query.remove) };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { race, room, author } = await requireRaceAccess(request, context, params.id, "edit");
  const posted = await readPostedForm(request);
  const base = `/race/${race.id}/admin/fields`;
  const { stored, fields } = await readFields(room);
  if (posted.intent === "create") {
    const parsed = parseForm(newRacerFieldFormSchema, posted);
    if (!parsed.ok) return parsed.reply;
    const field = newRacerField(parsed.value, fields);
    if (isInvalid(field)) return refuse(posted, { display: field.error });
    const result = await room.updateSettings({ fields_list: [...stored, field] }, author);
    return afterSave(posted, result, `${base}?saved=added&key=${encodeURIComponent(field.key)}`);
  }
  const current = fields.find((f) => f.key === posted.target);
  if (!current) throw new Response("Not found", { status: 404 });
  // Entries this page cannot read are kept as they are; only the chosen field changes.
  const isTarget = (entry: unknown) => typeof entry === "object" && entry !== null && !Array.isArray(entry) && (entry as { key?: unknown }).key === current.key;
  if (posted.intent === "save") {
    const parsed = parseForm(racerFieldFormSchema, posted);
    if (!parsed.ok) return parsed.reply;
    if (current.type === "option" && parsed.value.options.length === 0) return refuse(posted, { options: "Enter at least one option" });
    const next: RacerField = { ...current, ...parsed.value, options: current.type === "option" ? parsed.value.options : [] };
    const result = await room.updateSettings({ fields_list: stored.map((entry) => (isTarget(entry) ? next : entry)) }, author);
    return afterSave(posted, result, pageUrl(base, "saved"));
  }
  if (posted.intent === "delete") {
    const result = await room.updateSettings({ fields_list: stored.filter((entry) => !isTarget(entry)) }, author);
    return result.ok ? redirect(pageUrl(base, "deleted")) : refuse(posted, { form: Object.values(result.errors)[0] ?? "The field could not be deleted" });
  }
  return unknownIntent(posted);
}

export default function RacerFields() {
  const data = useLoaderData<typeof loader>();
  const base = `/race/${data.raceId}/admin/fields`;
  return (
    <section aria-labelledby="fields-heading">
      <h2 id="fields-heading">Racer fields</h2>
      <p className="hint">Fields of your own that every racer of this race has, beside name, bib, chip, sex, category, club, team and city.</p>
      <SavedNotice message={data.saved} />
      {data.added ? (
        <p className="form-notice" role="status">
          Field “{data.added.display}” added with the key <code data-testid="field-key">{data.added.key}</code>. Imports and the data service use the key.
        </p>
      ) : null}
      {data.removing ? (
        <ConfirmPanel
          title={`Delete the field “${data.removing.display}”?`}
          explanation={`Racers' values under the key ${data.removing.key} are no longer shown or checked, and result groups made from it lose their racers.`}
          intent="delete"
          target={data.removing.key}
          label="Delete field"
          busyLabel="Deleting…"
          cancelTo={base}
        />
      ) : null}
      {data.editing ? (
        <>
          <p>
            <Link to={base}>← All racer fields</Link>
          </p>
          <h3>{data.editing.display}</h3>
          <p className="race-meta">
            Key <code>{data.editing.key}</code> · {TYPE_LABELS[data.editing.type]}
          </p>
          <FieldForm field={data.editing} />
        </>
      ) : (
        <>
          <SetupTable
            items={data.fields}
            keyOf={(f) => f.key}
            empty="No racer fields yet."
            columns={[
              { header: "Field", cell: (f) => f.display },
              { header: "Key", cell: (f) => <code>{f.key}</code> },
              { header: "Type", cell: (f) => TYPE_LABELS[f.type] },
              { header: "Options", cell: (f) => f.options.join(", ") },
              { header: "Public", cell: (f) => (f.is_public ? "Yes" : "No") },
              { header: "Mandatory", cell: (f) => (f.is_mandatory ? "Yes" : "No") },
            ]}
            actions={(f) =>
              data.may.edit ? (
                <span className="row-links">
                  <Link to={`${base}?edit=${encodeURIComponent(f.key)}`} aria-label={`Edit ${f.display}`}>
                    Edit
                  </Link>
                  <Link to={`${base}?delete=${encodeURIComponent(f.key)}`} aria-label={`Delete ${f.display}`} className="danger-link">
                    Delete…
                  </Link>
                </span>
              ) : null
            }
          />
          <AddSection id="new-field-heading" heading="Add a racer field" shown={data.may.edit}>
            <FieldForm field={null} />
          </AddSection>
        </>
      )}
    </section>
  );
}

function FieldForm({ field }: { field: RacerField | null }) {
  const intent = field ? "save" : "create";
  const { errors, values } = useReplyFor(intent, field?.key ?? null);
  const checked = (name: "is_public" | "is_mandatory") => (values ? values[name] === "on" : (field?.[name] ?? false));
  return (
    <SetupForm intent={intent} target={field?.key ?? null} label={field ? "Save field" : "Add field"} busyLabel="Saving…" errors={errors}>
      <TextField
        name="display"
        label="Display name"
        required
        maxLength={200}
        hint={field ? undefined : "The key is made from it: lowercase letters and digits, is_ in front for a category, a number after it when taken."}
        defaultValue={values?.display ?? field?.display}
        error={errors.display}
      />
      {field ? null : (
        <SelectField
          name="type"
          label="Type"
          defaultValue={values?.type ?? "text"}
          error={errors.type}
          choices={CUSTOM_FIELD_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))}
        />
      )}
      {!field || field.type === "option" ? (
        <TextAreaField
          name="options"
          label="Options"
          hint="Option fields: one choice per line."
          defaultValue={values?.options ?? field?.options.join("\n")}
          error={errors.options}
        />
      ) : null}
      <TextField
        name="precision"
        label="Precision"
        inputMode="numeric"
        hint="Time and seconds fields: decimals shown (0-6). Optional."
        defaultValue={values?.precision ?? (field?.precision === null || field?.precision === undefined ? "" : String(field.precision))}
        error={errors.precision}
      />
      <CheckboxField name="is_public" label="Public: shown on result and start list pages" defaultChecked={checked("is_public")} />
      <CheckboxField name="is_mandatory" label="Mandatory: every racer needs a value" defaultChecked={checked("is_mandatory")} />
    </SetupForm>
  );
}

export const ErrorBoundary = () => <ErrorPage {...RACE_SETUP_ERRORS} />;
