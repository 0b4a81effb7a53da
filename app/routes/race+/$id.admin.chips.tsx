import { redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { ReplacementFields, ReplacementList } from "../../components/chip-replacement";
import { SavedNotice, SetupForm, TextField, useReplyFor } from "../../components/form-kit";
import { pageQuery, pageUrl, readPostedForm, refuse } from "../../forms/posted-form.server";
import { racerReplacements, replaceRacerChip } from "../../gochip-replacement.server";
import { requireRaceAccess } from "../../race-admin.server";

/** Each render carries a fresh one-time id: a cached page would post an old one and be taken for a resend. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Replace a chip · ${data.raceName}` : "Replace a chip" }];

/** A timer's "Replace a chip" (decision 0073): the racer by bib, through the racer page's replacement service. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const access = await requireRaceAccess(request, context, params.id, "replace_chip");
  return {
    raceId: access.race.id,
    raceName: access.race.name,
    // Sent twice (a double click), the chip is replaced once.
    submission: crypto.randomUUID(),
    replacements: await racerReplacements(context.env, access.race.id, null),
    saved: pageQuery(request).saved,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const access = await requireRaceAccess(request, context, params.id, "replace_chip");
  const posted = await readPostedForm(request);
  if (posted.intent !== "replace-chip") return refuse(posted, { form: "Unknown action" });
  const replaced = await replaceRacerChip(access, context.env, null, posted.values);
  if (!replaced.ok) return refuse(posted, replaced.errors, replaced.status);
  return redirect(pageUrl(`/race/${access.race.id}/admin/chips`, "chipReplaced"));
}

export default function ReplaceAChip() {
  const { raceId, submission, replacements, saved } = useLoaderData<typeof loader>();
  const { errors, values } = useReplyFor("replace-chip");
  return (
    <section aria-labelledby="chips-heading">
      <h2 id="chips-heading">Replace a chip</h2>
      <SavedNotice message={saved} />
      <p>
        For a racer whose chip is lost or dead. The old chip stays on the racer&apos;s list, so the reads it gave are kept.{" "}
        <Link to={`/race/${raceId}/admin/keypad`}>Keypad</Link>
      </p>
      <SetupForm intent="replace-chip" label="Replace chip" busyLabel="Replacing…" errors={errors}>
        <input type="hidden" name="submission" value={submission} />
        <TextField name="bib" label="Bib" inputMode="numeric" error={errors.bib} defaultValue={values?.bib} />
        <ReplacementFields errors={errors} values={values} />
      </SetupForm>
      <h3>Replaced at this race</h3>
      {replacements.length === 0 ? <p className="empty-state">No chip replaced yet.</p> : <ReplacementList replacements={replacements} />}
    </section>
  );
}
