import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { addSeason, requireRankingsAccess, requireScheme, saveMethod, saveSeasonRaces, schemePageData, type FormReply } from "../../rankings.server";
import { CheckboxField, SavedNotice, SelectField, SetupForm, TextField, useReplyFor } from "../../components/form-kit";
import { ErrorPage, RANKING_ERRORS } from "../../components/error-page";
import { pageQuery, readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import { formatRaceDate } from "../../format";

/** A ranking scheme's list for a season (decision 0054), its CSV, and for editors its seasons, races and method. */
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.scheme.name} · Ranking list` : "Ranking list" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const access = await requireRankingsAccess(request, context, params.club ?? "");
  const scheme = await requireScheme(access, params.scheme);
  const asked = new URL(request.url).searchParams.get("season");
  const page = await schemePageData(context.env, access, scheme, asked);
  return {
    clubId: access.clubId,
    mayEdit: access.mayEdit,
    saved: pageQuery(request).saved,
    ...page,
    clubRaces: page.clubRaces.map((r) => ({ id: r.id, label: `${r.name} · ${formatRaceDate(r.startTime, r.timezone)}` })),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const access = await requireRankingsAccess(request, context, params.club ?? "");
  if (!access.mayEdit) throw new Response("Forbidden", { status: 403 });
  const scheme = await requireScheme(access, params.scheme);
  const posted = await readPostedForm(request);
  const saves: Record<string, () => Promise<FormReply>> = {
    races: () => saveSeasonRaces(access, scheme, posted),
    season: () => addSeason(access, scheme, posted),
    method: () => saveMethod(access, scheme, posted),
  };
  const save = saves[posted.intent];
  if (!save) return unknownIntent(posted);
  const reply = await save();
  if (!reply.ok) return refuse(posted, reply.errors);
  const season = posted.intent === "season" ? posted.values.label : posted.values.season;
  return redirect(`/club/${access.clubId}/rankings/${scheme.id}?${new URLSearchParams({ ...(season ? { season: season.trim() } : {}), saved: "saved" })}`);
}

export const ErrorBoundary = () => <ErrorPage page {...RANKING_ERRORS} />;

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

export default function RankingList() {
  const data = useLoaderData<typeof loader>();
  const base = `/club/${data.clubId}/rankings/${data.scheme.id}`;
  return (
    <main className="page">
      <p>
        <Link to={`/club/${data.clubId}/rankings`}>← Ranking lists</Link>
      </p>
      <h1>{data.scheme.name}</h1>
      <SavedNotice message={data.saved} />
      {data.seasons.length > 1 ? (
        <Form method="get" className="inline-form">
          <SelectField name="season" label="Season" defaultValue={data.season ?? ""} choices={data.seasons.map((s) => ({ value: s, label: s }))} />
          <button type="submit">Show</button>
        </Form>
      ) : null}
      {data.season ? <h2>{`Season ${data.season}`}</h2> : null}
      <ListTable data={data} base={base} />
      {data.mayEdit ? <Editors data={data} /> : null}
    </main>
  );
}

function ListTable({ data, base }: { data: Data; base: string }) {
  if (!data.season) return <p className="empty-state">This scheme has no season yet. Add one below.</p>;
  if (data.seasonRaces.length === 0) return <p className="empty-state">{`No races count towards ${data.season} yet. Choose them below.`}</p>;
  const list = data.list;
  if (!list || list.racers.length === 0)
    return <p className="empty-state">No ranked results yet: the season&apos;s races have no finishers. The list fills in as results come in.</p>;
  const csv = `${base}/list.csv?${new URLSearchParams({ season: data.season })}`;
  return (
    <>
      <p className="hint">{`Points are the average of each racer's best ${data.config.best_n} result${data.config.best_n === 1 ? "" : "s"}${data.config.list_mode === "best" ? " (the best alone)" : ""}; lower is better. A result in brackets does not count.`}</p>
      <div className="table-scroll">
        <table className="data-table" data-testid="ranking-list">
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Name</th>
              <th scope="col">Club</th>
              <th scope="col">Points</th>
              <th scope="col">Results</th>
              {list.races.map((r) => (
                <th scope="col" key={r.id}>
                  {r.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {list.racers.map((r) => (
              <tr key={r.identity}>
                <td>{r.rank}</td>
                <th scope="row">{r.name}</th>
                <td>{r.club ?? ""}</td>
                <td>{r.points.toFixed(2)}</td>
                <td>{r.results.length}</td>
                {list.races.map((race) => {
                  const result = r.results.find((x) => x.race === race.id);
                  return (
                    <td key={race.id} className={result && !result.counted ? "muted" : undefined}>
                      {result ? (result.counted ? result.points.toFixed(2) : `(${result.points.toFixed(2)})`) : ""}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        <a href={csv} download>
          Download CSV
        </a>
      </p>
    </>
  );
}

function Editors({ data }: { data: Data }) {
  const races = useReplyFor("races");
  const season = useReplyFor("season");
  const method = useReplyFor("method");
  const chosen = new Set(data.seasonRaces);
  const c = data.config;
  const m = (name: keyof typeof c) => method.values?.[name] ?? String(c[name] ?? "");
  return (
    <>
      {data.season ? (
        <section aria-labelledby="races-heading">
          <h2 id="races-heading">{`Races of ${data.season}`}</h2>
          {data.clubRaces.length === 0 ? (
            <p className="empty-state">The club has no races yet.</p>
          ) : (
            <SetupForm intent="races" label="Save the season's races" busyLabel="Saving…" errors={races.errors}>
              <input type="hidden" name="season" value={data.season} />
              {data.clubRaces.map((r) => (
                <CheckboxField key={r.id} name={`race_${r.id}`} label={r.label} defaultChecked={chosen.has(r.id)} />
              ))}
            </SetupForm>
          )}
        </section>
      ) : null}
      <section aria-labelledby="season-heading">
        <h2 id="season-heading">New season</h2>
        <SetupForm intent="season" label="Add the season" busyLabel="Adding…" errors={season.errors}>
          <TextField
            name="label"
            label="Season"
            placeholder="2027"
            defaultValue={season.values?.label ?? ""}
            error={season.errors.label ?? season.errors.seasons}
          />
        </SetupForm>
      </section>
      <section aria-labelledby="method-heading">
        <h2 id="method-heading">Method (FIS points)</h2>
        <SetupForm intent="method" label="Save the method" busyLabel="Saving…" errors={method.errors}>
          <input type="hidden" name="season" value={data.season ?? ""} />
          <TextField
            name="factor"
            label="F factor"
            inputMode="decimal"
            hint="FIS distance 800, sprint 1010."
            defaultValue={m("factor")}
            error={method.errors.factor}
          />
          <TextField name="penalty_count" label="Penalty count" inputMode="numeric" defaultValue={m("penalty_count")} error={method.errors.penalty_count} />
          <TextField name="top_finishers" label="Top finishers" inputMode="numeric" defaultValue={m("top_finishers")} error={method.errors.top_finishers} />
          <TextField name="divisor" label="Penalty divisor" inputMode="decimal" defaultValue={m("divisor")} error={method.errors.divisor} />
          <TextField
            name="unranked_points"
            label="Unranked points"
            inputMode="decimal"
            defaultValue={m("unranked_points")}
            error={method.errors.unranked_points}
          />
          <TextField name="min_penalty" label="Minimum penalty" inputMode="decimal" defaultValue={m("min_penalty")} error={method.errors.min_penalty} />
          <TextField
            name="max_penalty"
            label="Maximum penalty"
            inputMode="decimal"
            hint="Empty for none."
            defaultValue={m("max_penalty")}
            error={method.errors.max_penalty}
          />
          <TextField name="best_n" label="Best N results" inputMode="numeric" defaultValue={m("best_n")} error={method.errors.best_n} />
          <SelectField
            name="list_mode"
            label="List points"
            defaultValue={m("list_mode")}
            error={method.errors.list_mode}
            choices={[
              { value: "average", label: "Average of the best N" },
              { value: "best", label: "The best result" },
            ]}
          />
          <TextField
            name="categories"
            label="Result groups scored"
            hint="Names separated by commas, each its own competition (Women, Men); empty scores every group."
            defaultValue={method.values?.categories ?? c.categories.join(", ")}
            error={method.errors.categories}
          />
        </SetupForm>
      </section>
    </>
  );
}
