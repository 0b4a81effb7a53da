/** The preview step of the CSV import: the column mapping, every row's problems, and the confirm button when there are none. */
import { Form } from "@remix-run/react";
import type { ImportPreviewView } from "../racer-import.server";

export function RacerImportPreview({
  preview,
  text,
  source,
  action,
  busy,
}: {
  preview: ImportPreviewView;
  text: string;
  source: string;
  action: string;
  busy: boolean;
}) {
  if (preview.fileError) {
    return (
      <p className="form-error" role="alert">
        {preview.fileError}
      </p>
    );
  }
  const racers = `${preview.total} ${preview.total === 1 ? "racer" : "racers"}`;
  const badRows = new Set(preview.problems.map((p) => p.row)).size;
  return (
    <section aria-labelledby="preview-heading">
      <h3 id="preview-heading">Preview</h3>
      <p>
        Columns used: {preview.mapped.map((m) => (m.header === m.field ? m.field : `${m.header} → ${m.field}`)).join(", ")}.
        {preview.ignored.length > 0 ? ` Ignored: ${preview.ignored.join(", ")}.` : ""}
      </p>
      {preview.problems.length > 0 ? (
        <>
          <p className="form-error" role="alert">
            {badRows} of {preview.total} rows have problems. Nothing has been imported: correct the file and preview it again.
          </p>
          <div className="table-scroll">
            <table className="data-table" data-testid="import-errors">
              <caption className="visually-hidden">Rows with problems (the header is row 1)</caption>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Field</th>
                  <th scope="col">Problem</th>
                </tr>
              </thead>
              <tbody>
                {preview.problems.map((p, i) => (
                  <tr key={i}>
                    <td>{p.row}</td>
                    <td>{p.field}</td>
                    <td>{p.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : (
        <>
          <p role="status">
            {racers} ready to import{preview.total > preview.sample.length ? `; the first ${preview.sample.length} are shown` : ""}.
          </p>
          <div className="table-scroll">
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Bib</th>
                  <th scope="col">Name</th>
                </tr>
              </thead>
              <tbody>
                {preview.sample.map((r) => (
                  <tr key={r.row}>
                    <td>{r.row}</td>
                    <td>{r.bib}</td>
                    <td>{r.name}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Form method="post" action={action} className="actions">
            <input type="hidden" name="intent" value="import" />
            <input type="hidden" name="text" value={text} />
            <input type="hidden" name="source" value={source} />
            <button type="submit" disabled={busy}>
              {busy ? "Importing…" : `Import ${racers}`}
            </button>
          </Form>
        </>
      )}
    </section>
  );
}
