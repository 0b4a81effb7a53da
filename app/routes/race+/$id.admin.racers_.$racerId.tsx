import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import * as z from "zod";
import { fieldErrorsOf } from "../../../core/entity/field-errors";
import { racerDisplayName } from "../../../core/timing/racer-name";
import type { StoredDocument } from "../../../schema/race/documents";
import { FormMessage } from "../../components/auth-card";
import { ReplacementFields, ReplacementList, type ReplacementRow } from "../../components/chip-replacement";
import { ConfirmForm } from "../../components/form-kit";
import { racerReplacements, replaceRacerChip, valuesOf } from "../../gochip-replacement.server";
import { RacerForm } from "../../components/racer-form";
import { submissionId } from "../../forms/field-rules";
import { requireRaceAccess } from "../../race-admin.server";
import { openDb } from "../../../schema/d1";
import { saveRacerChip } from "../../../workers/services/racer-chips";
import { refusedRegistrationChip } from "../../../workers/services/registration-racers";
import {
  changedFields,
  crossingRows,
  formErrorsOf,
  formInputs,
  loadRacerSetup,
  racerChangesFrom,
  racerFormValues,
  racerIdParam,
  type FieldErrors,
} from "../../racers.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.racer ? data.title : "New racer"} · ${data.raceName}` : "Racer" }];

/** The racer (404 when there is none with this id); "new" is the add form. */
async function racerOf(request: Request, context: LoaderFunctionArgs["context"], params: LoaderFunctionArgs["params"]) {
  const access = await requireRaceAccess(request, context, params.id, "edit");
  const id = racerIdParam.safeParse(params.racerId);
  if (!id.success) throw new Response("Not found", { status: 404 });
  const racer = id.data === "new" ? null : await access.room.racer(id.data);
  if (id.data !== "new" && !racer) throw new Response("Not found", { status: 404 });
  return { access, racer };
}

// The new racer form's one-time id (a page sent before it had one sends none).
const submissionSchema = submissionId.optional();
const confirmSchema = z.enum(["clear", "delete"]).nullable().catch(null);
const doneSchema = z.enum(["saved", "created", "cleared", "replaced"]).nullable().catch(null);

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { access, racer } = await racerOf(request, context, params);
  const [setup, crossings, devices, replacements, chipNote] = await Promise.all([
    loadRacerSetup(access),
    racer ? access.room.racerCrossings(racer.id) : Promise.resolve([]),
    racer ? access.room.documents("TimingDevice") : Promise.resolve([]),
    racer ? racerReplacements(context.env, access.race.id, racer.id) : Promise.resolve([]),
    // A chip typed at registration that the depots refused: the racer was entered without it (decision 0077).
    racer ? refusedRegistrationChip(openDb(context.env.DB), access.race, access.room, racer) : Promise.resolve(null),
  ]);
  const url = new URL(request.url);
  const title = racer
    ? racerDisplayName(
        { firstName: racer.data.first_name, lastName: racer.data.last_name, fullname: racer.data.fullname },
        setup.settings.is_last_name_first,
      ) || `Bib ${racer.data.bib ?? "?"}`
    : "New racer";
  return {
    raceId: access.race.id,
    raceName: access.race.name,
    racer: racer ? { id: racer.id, bib: racer.data.bib, chip: racer.data.chip } : null,
    replacements,
    chipNote,
    // The replace form's one-time id: sent twice (a double click), the chip is replaced once.
    replacement: crypto.randomUUID(),
    // The new racer's id: "Add racer" sent twice adds them once.
    submission: racer ? null : crypto.randomUUID(),
    title,
    values: racerFormValues(racer?.data ?? null, setup),
    courses: setup.courses,
    startGroups: setup.startGroups,
    metaStartGroups: setup.metaStartGroups,
    fields: setup.fields,
    // The RPC stub loses the document kind of the call.
    crossings: crossingRows(crossings, setup, devices as StoredDocument<"TimingDevice">[]),
    confirm: racer ? confirmSchema.parse(url.searchParams.get("confirm")) : null,
    done: doneSchema.parse(url.searchParams.get("done")),
  };
}

type Result = { errors: FieldErrors; values: Record<string, string> | null };
const intentSchema = z.enum(["save", "clear", "delete", "replace-chip"], { error: "Unknown action" });

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { access, racer } = await racerOf(request, context, params);
  const form = await request.formData();
  const intent = intentSchema.safeParse(form.get("intent"));
  if (!intent.success) return data<Result>({ errors: { form: "Unknown action" }, values: null }, { status: 400 });
  const base = `/race/${access.race.id}/admin/racers`;
  if (intent.data === "delete" && racer) {
    await access.room.deleteRacer(racer.id);
    const name = racerDisplayName({ firstName: racer.data.first_name, lastName: racer.data.last_name, fullname: racer.data.fullname }, false);
    return redirect(`${base}?${new URLSearchParams({ deleted: name || `bib ${racer.data.bib ?? "?"}` })}`);
  }
  if (intent.data === "replace-chip" && racer) {
    const replaced = await replaceRacerChip(access, context.env, racer.id, valuesOf(form));
    if (!replaced.ok) return data<Result>({ errors: replaced.errors, values: null }, { status: replaced.status });
    return redirect(`${base}/${racer.id}?done=replaced`);
  }
  if (intent.data === "clear" && racer) {
    await access.room.clearTimes(racer.id);
    return redirect(`${base}/${racer.id}?done=cleared`);
  }
  if (intent.data !== "save") return data<Result>({ errors: { form: "There is no racer here yet." }, values: null }, { status: 400 });
  const values = formInputs(form);
  const submission = submissionSchema.safeParse(form.get("submission") ?? undefined);
  if (!submission.success) return data<Result>({ errors: fieldErrorsOf(submission.error.issues), values }, { status: 400 });
  const setup = await loadRacerSetup(access);
  const parsed = racerChangesFrom(values, setup);
  if (!parsed.ok) return data<Result>({ errors: parsed.errors, values }, { status: 400 });
  const changes = changedFields(parsed.changes, racer?.data ?? null);
  if (racer && Object.keys(changes).length === 0) return redirect(`${base}/${racer.id}?done=saved`);
  // A depot's chip handed out here is issued from its rack (decision 0076).
  const saved = await saveRacerChip(context.env, openDb(context.env.DB), access.race.id, access.room, racer, changes, racer ? undefined : submission.data);
  if (!saved.ok) return data<Result>({ errors: formErrorsOf(saved.errors), values }, { status: 400 });
  return redirect(`${base}/${saved.value.id}?done=${racer ? "saved" : "created"}`);
}

const DONE_NOTICES = {
  saved: "Your changes are saved.",
  created: "Racer added.",
  cleared: "All times of this racer are cleared.",
  replaced: "Chip replaced: later reads of the new chip are this racer's.",
} as const;

export default function RacerPage() {
  const {
    raceId,
    racer,
    title,
    values,
    courses,
    startGroups,
    metaStartGroups,
    fields,
    crossings,
    confirm,
    done,
    replacements,
    replacement,
    submission,
    chipNote,
  } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const list = `/race/${raceId}/admin/racers`;
  const self = racer ? `${list}/${racer.id}` : `${list}/new`;
  const errors: FieldErrors = result?.errors ?? {};
  const shown = result?.values ?? values;
  const back = (
    <p>
      <Link to={list}>← Racers</Link>
    </p>
  );

  if (confirm === "clear") {
    return (
      <>
        {back}
        <ConfirmForm
          title={`Clear all times of ${title}?`}
          error={errors.form}
          action={self}
          intent="clear"
          label="Clear all times"
          pendingLabel="Clearing…"
          pending={pending("clear")}
          cancelTo={self}
          danger
        >
          <p>
            This removes the racer’s time lists, biathlon data, penalty times, the oncourse flag and warnings. The reads stay in the log, marked cleared; the
            racer’s details, start time and status are kept.
          </p>
        </ConfirmForm>
      </>
    );
  }
  if (confirm === "delete") {
    return (
      <>
        {back}
        <ConfirmForm
          title={`Delete ${title}?`}
          error={errors.form}
          action={self}
          intent="delete"
          label="Delete racer"
          pendingLabel="Deleting…"
          pending={pending("delete")}
          cancelTo={self}
          danger
        >
          <p>
            The racer and their results are removed. Their reads stay in the log, unmatched, so adding the racer again with the same bib or chip finds them.
            This cannot be undone.
          </p>
        </ConfirmForm>
      </>
    );
  }

  const fieldErrorCount = Object.keys(errors).filter((k) => k !== "form").length;
  return (
    <>
      {back}
      <section aria-labelledby="racer-heading">
        <h2 id="racer-heading">{title}</h2>
        {done && !result ? <FormMessage notice={DONE_NOTICES[done]} /> : null}
        <FormMessage error={errors.form ?? (fieldErrorCount > 0 ? "Please correct the fields marked below." : null)} />
        {chipNote ? <p className="hint">{chipNote}</p> : null}
        <RacerForm
          key={JSON.stringify(shown)}
          action={self}
          values={shown}
          errors={errors}
          courses={courses}
          startGroups={startGroups}
          metaStartGroups={metaStartGroups}
          fields={fields}
          submitLabel={racer ? "Save racer" : "Add racer"}
          submission={submission ?? undefined}
          pending={pending("save")}
        />
      </section>
      {racer ? (
        <>
          <section aria-labelledby="reads-heading">
            <h3 id="reads-heading">Reads</h3>
            {crossings.length === 0 ? (
              <p className="empty-state">No reads for this racer.</p>
            ) : (
              <div className="table-scroll">
                <table className="data-table">
                  <thead>
                    <tr>
                      <th scope="col">Time of day</th>
                      <th scope="col">Timing point</th>
                      <th scope="col">Device</th>
                      <th scope="col">State</th>
                    </tr>
                  </thead>
                  <tbody>
                    {crossings.map((c) => (
                      <tr key={c.seq}>
                        <td>{c.timeOfDay}</td>
                        <td>{c.point}</td>
                        <td>{c.device}</td>
                        <td>{c.state}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
          <ReplaceChip action={self} chip={racer.chip} submission={replacement} errors={errors} pending={pending("replace-chip")} replacements={replacements} />
          <section aria-labelledby="danger-heading">
            <h3 id="danger-heading">Clear or delete</h3>
            <p className="actions">
              <Link to={`${self}?confirm=clear`} className="button secondary">
                Clear all times…
              </Link>
              <Link to={`${self}?confirm=delete`} className="button danger">
                Delete racer…
              </Link>
            </p>
          </section>
        </>
      ) : null}
    </>
  );
}

/** A GoChip replacement session (decision 0068): the racer's lost or faulty chip swapped for another. */
function ReplaceChip(props: {
  action: string;
  chip: string | null;
  submission: string;
  errors: FieldErrors;
  pending: boolean;
  replacements: ReplacementRow[];
}) {
  return (
    <section aria-labelledby="replace-heading">
      <h3 id="replace-heading">Replace chip</h3>
      <p>Chip now: {props.chip ?? "none"}. The old chip stays on the racer&apos;s list, so the reads it gave are kept.</p>
      <Form method="post" action={props.action} className="setup-form">
        <input type="hidden" name="intent" value="replace-chip" />
        <input type="hidden" name="submission" value={props.submission} />
        <ReplacementFields errors={props.errors} />
        <button type="submit" disabled={props.pending}>
          {props.pending ? "Replacing…" : "Replace chip"}
        </button>
      </Form>
      {props.replacements.length > 0 ? <ReplacementList replacements={props.replacements} /> : null}
    </section>
  );
}
