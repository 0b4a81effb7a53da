import { data, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { WAITLIST_WORDS } from "../../../core/registration/waitlist";
import { openDb } from "../../../schema/d1";
import { getRegistration, listElements } from "../../../workers/services/registration-forms";
import { entryToLeave, offerFreedPlaces, removeWaitlistEntry, wishOfPools } from "../../../workers/services/waitlists";
import { ErrorPage, REGISTRATION_FLOW_ERRORS } from "../../components/error-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.name} · Waitlist` : "Waitlist" }];

/**
 * The link in every waitlist mail: a person leaves the list (asked first, by a button, so a mail scanner
 * following the link changes nothing). Their held place, if they were offered one, goes to the next person.
 */
async function leaving(request: Request, context: AppLoadContext, registrationId: string | undefined, token: string | null) {
  const db = openDb(context.env.DB);
  const registration = registrationId ? await getRegistration(db, context.tenant, registrationId).catch(() => null) : null;
  if (!registration) throw new Response("Not found", { status: 404 });
  const lang = registration.isBilingual && new URL(request.url).searchParams.get("lang") === "fr" ? "fr" : "en";
  const entry = await entryToLeave(context.env, db, registration.id, token);
  if (!entry) throw new Response("This link is not valid. Use the link in the newest email about the waitlist.", { status: 404 });
  const active = entry.state === "waiting" || entry.state === "offered";
  return { db, registration, lang, entry, active } as const;
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("leave");
  const { db, registration, lang, entry, active } = await leaving(request, context, params.registrationId, token);
  const words = WAITLIST_WORDS[lang];
  return {
    name: registration.name,
    lang,
    token: token ?? "",
    message: active ? words.leavePrompt(wishOfPools(await listElements(db, registration.id), entry.pools, lang)) : words.notOnList,
    active,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const token = String((await request.formData()).get("leave") ?? "");
  const { db, registration, lang, entry, active } = await leaving(request, context, params.registrationId, token);
  const words = WAITLIST_WORDS[lang];
  // Sent twice (a double click): the second finds them already off the list and says so.
  if (!active || !(await removeWaitlistEntry(db, registration.id, entry.id, context.now))) return data({ done: words.notOnList });
  context.ctx.waitUntil(offerFreedPlaces(context.env, db, registration.id, context.now).catch((e: unknown) => console.error("Waitlist sweep failed", e)));
  return data({ done: words.left });
}

export default function LeaveWaitlist() {
  const { name, lang, token, message, active } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const words = WAITLIST_WORDS[lang];
  return (
    <main className="page registration-page" lang={lang}>
      <h1>{name}</h1>
      {reply ? (
        <p role="status" data-testid="waitlist-left">
          {reply.done}
        </p>
      ) : (
        <>
          <p>{message}</p>
          {active ? (
            <Form method="post">
              <input type="hidden" name="leave" value={token} />
              <button type="submit" className="danger" disabled={busy}>
                {words.leave}
              </button>
            </Form>
          ) : null}
        </>
      )}
    </main>
  );
}

export const ErrorBoundary = () => <ErrorPage page {...REGISTRATION_FLOW_ERRORS} />;
