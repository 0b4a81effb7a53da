import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { FormMessage } from "../../components/auth-card";
import { RacerImportPreview } from "../../components/racer-import-preview";
import { boxStyle, Field } from "../../components/form-kit";
import { requireRaceAccess } from "../../race-admin.server";
import { IMPORT_MAX_ROWS, previewImport, previewView, readImportForm, type ImportPreviewView } from "../../racer-import.server";
import { loadRacerSetup } from "../../racers.server";
import { openDb } from "../../../schema/d1";
import { importChip, importChipBook, importRacersWithChips } from "../../../workers/services/racer-chips";
import { everyRacer } from "../../../workers/services/race-racers";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Import racers · ${data.raceName}` : "Import racers" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const access = await requireRaceAccess(request, context, params.id, "edit");
  const setup = await loadRacerSetup(access);
  return {
    raceId: access.race.id,
    raceName: access.race.name,
    custom: setup.fields.map((f) => f.display),
    courses: setup.courses.map((c) => c.name),
    startGroups: setup.startGroups.map((g) => g.name),
    maxRows: IMPORT_MAX_ROWS,
  };
}

type Result = { error: string | null; preview: ImportPreviewView | null; text: string; source: string };

/**
 * "preview" reads the file and shows every row and its problems, writing nothing; "import" reads the same
 * text again and writes it in one all-or-nothing importRacers call, the depot chips handed out issued after it.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const access = await requireRaceAccess(request, context, params.id, "edit");
  const read = await readImportForm(request);
  if ("error" in read) return data<Result>({ error: read.error, preview: null, text: "", source: "" }, { status: 400 });
  const db = openDb(context.env.DB);
  // The race's depot chips are read once for the whole file (decision 0076).
  const [setup, racers, book] = await Promise.all([loadRacerSetup(access), everyRacer(access.room), importChipBook(db, access.race.id)]);
  const preview = previewImport(read.text, setup, racers, importChip(book));
  const failed = preview.fileError !== null || preview.rows.some((r) => r.errors.length > 0);
  if (read.intent === "preview" || failed)
    return data<Result>({ error: null, preview: previewView(preview), text: read.text, source: read.source }, { status: failed ? 400 : 200 });
  const rows = preview.rows.map((r) => ({ ...r.changes, imported_from: read.source }));
  const result = await importRacersWithChips(context.env, db, access.race.id, access.room, rows, book);
  if (!result.ok) {
    // Someone changed the racers since the preview: show the room's verdict by file row (data row 1 is file row 2).
    const byRow = new Map(result.rows.map((r) => [r.row + 1, r.errors]));
    const rows = preview.rows.map((r) => ({ ...r, errors: Object.entries(byRow.get(r.row) ?? {}).map(([field, message]) => ({ field, message })) }));
    return data<Result>(
      {
        error: "Nothing was imported: the race’s racers changed since the preview.",
        preview: previewView({ ...preview, rows }),
        text: read.text,
        source: read.source,
      },
      { status: 409 },
    );
  }
  return redirect(`/race/${access.race.id}/admin/racers?imported=${result.created}`);
}

export default function ImportRacers() {
  const { raceId, custom, courses, startGroups, maxRows } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const self = `/race/${raceId}/admin/racers/import`;
  return (
    <>
      <p>
        <Link to={`/race/${raceId}/admin/racers`}>← Racers</Link>
      </p>
      <section aria-labelledby="import-heading">
        <h2 id="import-heading">Import racers from CSV</h2>
        <FormMessage error={result?.error} />
        {result?.preview ? <RacerImportPreview preview={result.preview} text={result.text} source={result.source} action={self} busy={busy} /> : null}
        <h3>{result?.preview ? "Choose another file" : "Choose a file"}</h3>
        <p>
          The first row names the columns: First Name, Last Name, Bib, Chip, Chips (comma separated), Course, Start Group, Sex, Club, Team, City, Category,
          Scheduled Start, and for seeding CCC Licence, Licence, CPL Distance Points, CPL Sprint Points, Seed, Manual Seed
          {custom.length > 0 ? `, and this race’s own fields: ${custom.join(", ")}` : ""}. Other columns are ignored. Course and start group are matched by name
          {courses.length > 0 ? ` (courses: ${courses.join(", ")}` : " (no courses yet"}
          {startGroups.length > 0 ? `; start groups: ${startGroups.join(", ")})` : "; no start groups yet)"}. At most {maxRows} racers and 2 MB.
        </p>
        <Form method="post" action={self} encType="multipart/form-data" className="stack">
          <input type="hidden" name="intent" value="preview" />
          <Field id="import-file" label="CSV file" hint="UTF-8 text, as spreadsheets save it with “CSV UTF-8”.">
            {(describedBy) => <input id="import-file" name="file" type="file" accept=".csv,text/csv,text/plain" aria-describedby={describedBy} />}
          </Field>
          <Field id="import-text" label="Or paste the racers" hint="Copy the rows, header included, from a spreadsheet saved as CSV.">
            {(describedBy) => <textarea id="import-text" name="text" rows={8} spellCheck={false} style={boxStyle} aria-describedby={describedBy} />}
          </Field>
          <button type="submit" disabled={busy}>
            {busy && navigation.formData?.get("intent") === "preview" ? "Reading…" : "Preview the import"}
          </button>
        </Form>
      </section>
    </>
  );
}
