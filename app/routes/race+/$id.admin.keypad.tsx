import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { KeypadPad, type KeypadResult } from "../../components/keypad-pad";
import type { CourseDoc } from "../../../schema/race/documents";
import { keypadShootings, runCountOf } from "../../../schema/race/settings";
import { requireRaceAccess } from "../../race-admin.server";
import { keypadEntryFrom, keypadOutcome } from "../../keypad.server";
import { loadRacerSetup } from "../../racers.server";

/** Each render carries a fresh entry key: a cached page would post an old one and be taken for a duplicate. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Keypad · ${data.raceName}` : "Keypad" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const access = await requireRaceAccess(request, context, params.id, "time");
  const [setup, courses] = await Promise.all([loadRacerSetup(access), access.room.documents("Course")]);
  const shootings = keypadShootings(
    setup.settings,
    courses.map((c) => (c.data as CourseDoc).lap_count),
  );
  const runs = runCountOf(setup.settings);
  return {
    raceId: access.race.id,
    raceName: access.race.name,
    timezone: access.race.timezone,
    points: setup.points,
    shootings,
    runs,
    formKey: crypto.randomUUID(),
    mayReplaceChip: access.may.replace_chip,
  };
}

/** The keypad's plain form post (before the page's script runs): one entry through the same RaceRoom call as the timing API. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { room, principal } = await requireRaceAccess(request, context, params.id, "time");
  const parsed = keypadEntryFrom(await request.formData(), Date.now());
  if (!parsed.ok) return data<KeypadResult>({ notice: null, error: parsed.errors.form ?? "Please correct the entry.", errors: parsed.errors }, { status: 400 });
  const reply = await room.manualEntries(principal.userId, { entries: [parsed.entry] });
  if (!reply.ok) return data<KeypadResult>({ notice: null, error: reply.message, errors: {} }, { status: reply.status });
  return data<KeypadResult>({ ...keypadOutcome(parsed.entry, reply.value), errors: {} });
}

export default function Keypad() {
  const { raceId, timezone, points, shootings, runs, formKey, mayReplaceChip } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() ?? null;
  return (
    <section aria-labelledby="keypad-heading">
      <h2 id="keypad-heading">Keypad</h2>
      <KeypadPad raceId={raceId} timezone={timezone} points={points} shootings={shootings} runs={runs} formKey={formKey} result={result} form={Form} />
      <p>
        Every keypad's entries for this race, with who keyed them: <Link to={`/race/${raceId}/admin/entries`}>Keyed entries</Link>
      </p>
      {mayReplaceChip ? (
        <p>
          A racer with a lost or dead chip? <Link to={`/race/${raceId}/admin/chips`}>Replace a chip</Link>
        </p>
      ) : null}
    </section>
  );
}
