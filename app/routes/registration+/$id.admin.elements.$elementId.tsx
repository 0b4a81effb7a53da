import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { labelIn } from "../../../core/forms/bilingual";
import type { FormElement } from "../../../core/forms/model";
import { FIELD_TYPE_MODULES } from "../../../core/forms/registry";
import { elementEditedAt, listElements, saveElement } from "../../../workers/services/registration-forms";
import { offerFreedPlaces } from "../../../workers/services/waitlists";
import { systemsOfClub } from "../../../workers/services/validation-systems";
import { divisionsOfClub } from "../../../workers/services/division-choices";
import { isPriced, requireRegistrationAccess, withNotice } from "../../registration-admin.server";
import {
  blankDiscount,
  blankOption,
  draftOf,
  editorIntentOf,
  editorSectionsOf,
  elementOfDraft,
  openedAtOf,
  readDraft,
  readPosted,
} from "../../registration-element-form.server";
import { FIELD_TYPE_LABELS, type ElementDraft, type ElementReply } from "../../components/form-builder-choices";
import { ElementEditor } from "../../components/form-builder-editor";
import { ErrorPage, REGISTRATION_ADMIN_ERRORS } from "../../components/error-page";

/** The form's elements and the one at this address, or a 404 (deleted in another tab, or another form's). */
async function elementsAndElement(db: Parameters<typeof listElements>[0], registrationId: string, elementId: string | undefined) {
  const elements = await listElements(db, registrationId);
  const element = elements.find((e) => e.id === elementId);
  if (!element) throw new Response("Not found", { status: 404 });
  return { elements, element };
}

const nameOf = (element: FormElement, index: number) =>
  `${index + 1}. ${labelIn(element.caption, "en") || FIELD_TYPE_LABELS[element.type]} (${FIELD_TYPE_LABELS[element.type]})`;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { registration, builder } = await requireRegistrationAccess(request, context, params.id, "edit");
  const { elements, element } = await elementsAndElement(builder.db, registration.id, params.elementId);
  const named = elements.map((e, i) => ({ element: e, label: nameOf(e, i) }));
  // What the element already refers to stays offered, so saving never drops a reference silently.
  const referenced = new Set([element.condition?.element, ...(element.config.discounts_list ?? []).flatMap((d) => d.elts_list)]);
  const offered = (keep: (e: FormElement) => boolean) =>
    named.filter(({ element: e }) => keep(e) || referenced.has(e.id)).map(({ element: e, label }) => ({ value: e.id, label }));
  return {
    registrationId: registration.id,
    elementId: element.id,
    type: element.type,
    typeLabel: FIELD_TYPE_LABELS[element.type],
    caption: labelIn(element.caption, "en"),
    bilingual: registration.isBilingual,
    sections: editorSectionsOf(element.type),
    draft: draftOf(element, registration.isBilingual),
    others: offered((e) => e.id !== element.id && FIELD_TYPE_MODULES[e.type].isInput),
    priced: offered(isPriced),
    openedAt: await elementEditedAt(builder.db, element.id),
    validationSystems: editorSectionsOf(element.type).validation
      ? (await systemsOfClub(builder.db, registration.clubId)).map((v) => ({ value: v.id, label: `${v.name} (${v.kind}${v.isActive ? "" : ", inactive"})` }))
      : [],
    divisions: editorSectionsOf(element.type).membership
      ? (await divisionsOfClub(builder.db, registration.clubId)).map((d) => ({ value: d.id, label: d.name }))
      : [],
  };
}

function reply(intent: string, draft: ElementDraft, openedAt: number | null, errors: Record<string, string> = {}, status = 200) {
  return data<ElementReply>({ intent, draft, errors, revision: crypto.randomUUID(), openedAt }, { status });
}

/** Errors about an input the editor has stay beside it; any other (a whole list, the form) goes on top. */
function placed(errors: Record<string, string>, posted: Map<string, string[]>): Record<string, string> {
  const lists = new Set(["options_list", "config.discounts_list", "form"]);
  const out: Record<string, string> = {};
  for (const [key, message] of Object.entries(errors)) {
    const at = posted.has(key) || lists.has(key) || /\.elts_list$/.test(key) ? key : "form";
    out[at] ??= message;
  }
  return out;
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { registration, builder } = await requireRegistrationAccess(request, context, params.id, "edit");
  const { element } = await elementsAndElement(builder.db, registration.id, params.elementId);
  const posted = await readPosted(request);
  const draft = readDraft(posted);
  const intent = editorIntentOf(posted);
  const openedAt = openedAtOf(posted);
  switch (intent.kind) {
    case "add-option":
      return reply(intent.kind, { ...draft, options: [...draft.options, blankOption()] }, openedAt);
    case "remove-option":
      return reply(intent.kind, { ...draft, options: draft.options.filter((_, i) => i !== intent.index) }, openedAt);
    case "add-discount":
      return reply(intent.kind, { ...draft, discounts: [...draft.discounts, blankDiscount()] }, openedAt);
    case "remove-discount":
      return reply(intent.kind, { ...draft, discounts: draft.discounts.filter((_, i) => i !== intent.index) }, openedAt);
    case "save": {
      const read = elementOfDraft(draft, element, registration.isBilingual);
      if (!read.ok) return reply("save", draft, openedAt, placed(read.errors, posted), 400);
      const saved = await saveElement(builder, registration, read.element, openedAt);
      if (!saved.ok) return reply("save", draft, openedAt, placed(saved.errors, posted), saved.errors.form ? 409 : 400);
      // A limit raised here frees places: whoever waits for them is offered one now, not at the next cron (decision 0066).
      if (registration.waitlistOfferHours !== null)
        context.ctx.waitUntil(
          offerFreedPlaces(context.env, builder.db, registration.id, context.now).catch((e: unknown) => console.error("Waitlist sweep failed", e)),
        );
      return redirect(withNotice(`/registration/${registration.id}/admin/elements/${element.id}`, "saved"));
    }
    default:
      return reply("unknown", draft, openedAt, { form: "Unknown action" }, 400);
  }
}

export default function ElementEditorPage() {
  const loaded = useLoaderData<typeof loader>();
  const answer = useActionData<ElementReply>();
  const draft = answer?.draft ?? loaded.draft;
  const focus = answer?.intent === "add-option" ? "option" : answer?.intent === "add-discount" ? "discount" : null;
  return (
    <section aria-labelledby="element-heading">
      <h2 id="element-heading">
        {loaded.typeLabel}: {loaded.caption || "(no caption)"}
      </h2>
      <ElementEditor
        key={`${loaded.elementId}-${answer?.revision ?? "stored"}`}
        draft={draft}
        errors={answer?.errors ?? {}}
        sections={loaded.sections}
        type={loaded.type}
        typeLabel={loaded.typeLabel}
        bilingual={loaded.bilingual}
        others={loaded.others}
        priced={loaded.priced}
        focus={focus}
        backTo={`/registration/${loaded.registrationId}/admin`}
        openedAt={answer?.openedAt ?? loaded.openedAt}
        validationSystems={loaded.validationSystems}
        divisions={loaded.divisions}
      />
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage {...REGISTRATION_ADMIN_ERRORS} />;
}
