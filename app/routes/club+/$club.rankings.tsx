import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { schemesOfClub } from "../../../workers/services/ranking-lists";
import { createScheme, requireRankingsAccess } from "../../rankings.server";
import { SetupForm, TextField, useReplyFor } from "../../components/form-kit";
import { ErrorPage, RANKING_ERRORS } from "../../components/error-page";
import { readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import { ClubPage } from "../../components/club-page";

/** A club's ranking schemes (decision 0054): each links to its list; a new FIS scheme starts with its first season. */
export const meta: MetaFunction = () => [{ title: "Ranking lists" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const access = await requireRankingsAccess(request, context, params.club ?? "");
  const schemes = await schemesOfClub(access.db, access.clubId);
  // One id per opened form: sending it twice (a double click) makes one scheme.
  return {
    clubId: access.clubId,
    mayEdit: access.mayEdit,
    schemes: schemes.map((s) => ({ id: s.id, name: s.name, about: [s.sport, s.season ? `season ${s.season}` : null].filter(Boolean).join(" · ") })),
    submission: crypto.randomUUID(),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const access = await requireRankingsAccess(request, context, params.club ?? "");
  if (!access.mayEdit) throw new Response("Forbidden", { status: 403 });
  const posted = await readPostedForm(request);
  if (posted.intent !== "create") return unknownIntent(posted);
  const created = await createScheme(access, posted);
  return created.ok ? redirect(`/club/${access.clubId}/rankings/${created.id}?saved=created`) : refuse(posted, created.errors);
}

export const ErrorBoundary = () => <ErrorPage page {...RANKING_ERRORS} />;

export default function Rankings() {
  const data = useLoaderData<typeof loader>();
  const reply = useReplyFor("create");
  return (
    <ClubPage clubId={data.clubId} title="Ranking lists">
      {data.schemes.length === 0 ? (
        <p className="empty-state">No ranking scheme yet. Start one below, then add the races that count to its season.</p>
      ) : (
        <ul>
          {data.schemes.map((s) => (
            <li key={s.id}>
              <Link to={`/club/${data.clubId}/rankings/${s.id}`}>{s.name}</Link>
              {s.about ? ` · ${s.about}` : ""}
            </li>
          ))}
        </ul>
      )}
      {data.mayEdit ? (
        <>
          <h2>New ranking scheme</h2>
          <p className="hint">FIS points: race points from the winner&apos;s time plus a race penalty from the best-ranked starters; lower is better.</p>
          <SetupForm intent="create" label="Start the scheme" busyLabel="Starting…" errors={reply.errors}>
            <input type="hidden" name="submission" value={data.submission} />
            <TextField name="name" label="Name" defaultValue={reply.values?.name ?? ""} error={reply.errors.name} />
            <TextField
              name="sport"
              label="Sport"
              hint="Optional: races of another sport cannot count."
              defaultValue={reply.values?.sport ?? ""}
              error={reply.errors.sport}
            />
            <TextField name="season" label="First season" placeholder="2026" defaultValue={reply.values?.season ?? ""} error={reply.errors.season} />
          </SetupForm>
        </>
      ) : null}
    </ClubPage>
  );
}
