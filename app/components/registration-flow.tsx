/** The frame of the public registration pages: the form's name, where the registrant is, and the error page. */
import { Link, useLocation } from "@remix-run/react";
import type { Lang } from "../../core/forms/bilingual";
import { capitalised, type PeopleLabels } from "../../core/registration/people-labels";
import { FLOW_WORDS } from "./registration-words";
import type { RegistrationStatus } from "../../core/registration/status";

const STEPS = ["person", "cart", "pay"] as const;

interface FlowHeaderForm {
  name: string;
  clubName: string;
  status: RegistrationStatus;
  mode: "open" | "preview";
  isBilingual: boolean;
  lang: Lang;
  peopleLabels: PeopleLabels;
}

export function FlowHeader({ form: props, step: current }: { form: FlowHeaderForm; step: (typeof STEPS)[number] }) {
  const location = useLocation();
  const words = FLOW_WORDS[props.lang];
  // The first step is named by what the form calls registrants: "Racers".
  const stepLabels = { person: capitalised(props.peopleLabels.plural), cart: words.steps.review, pay: words.steps.payment };
  const other: Lang = props.lang === "fr" ? "en" : "fr";
  const params = new URLSearchParams(location.search);
  if (other === "fr") params.set("lang", "fr");
  else params.delete("lang");
  return (
    <header className="flow-header">
      <p className="race-meta">{props.clubName}</p>
      <h1>{props.name}</h1>
      {props.mode === "preview" ? (
        <p className="preview-banner" role="status" data-testid="preview-banner">
          {words.preview(props.status)}
        </p>
      ) : null}
      {props.isBilingual ? (
        <p>
          <Link to={`${location.pathname}?${params.toString()}`} lang={other}>
            {words.otherLanguage}
          </Link>
        </p>
      ) : null}
      <ol className="flow-steps" aria-label={words.steps.label}>
        {STEPS.map((step) => (
          <li key={step} aria-current={step === current ? "step" : undefined}>
            {stepLabels[step]}
          </li>
        ))}
      </ol>
    </header>
  );
}
