/**
 * The serverbox's web keypad (a WebClient, decision 0084): the platform's own keypad, its outbox and its
 * two-tab safety, rendered in a browser on the venue's network by a page the box serves. No Remix here: the
 * box bundles this file with esbuild and the forms are plain, as the entries go through the outbox.
 */
import { createRoot } from "react-dom/client";
import { KeypadPad, type KeypadForm } from "../components/keypad-pad";
import type { KeypadQueueTexts } from "../components/keypad-queue";
import { keypadSetupSchema } from "../../schema/wire/keypad-setup";

const BOX_TEXTS: KeypadQueueTexts = {
  unauthorized: "This keypad is no longer paired with the serverbox: pair it again from its keypad page; the entries are kept and sent then.",
  forbidden: "The serverbox refused this keypad; the entries are kept on this device.",
};

const PlainForm: KeypadForm = ({ children, ...props }) => <form {...props}>{children}</form>;

function readSetup() {
  try {
    return keypadSetupSchema.safeParse(JSON.parse(document.getElementById("keypad-setup")?.textContent ?? "")).data ?? null;
  } catch {
    return null;
  }
}

const setup = readSetup();
const root = document.getElementById("keypad");
// A page from a box of another version: say so rather than key entries against a setup read wrong.
if (root && !setup) root.textContent = "This keypad page is out of date: reload it.";
if (root && setup) {
  createRoot(root).render(
    <KeypadPad
      raceId={setup.raceId}
      timezone={setup.timezone}
      points={setup.points}
      shootings={setup.shootings}
      runs={setup.runs}
      formKey=""
      result={null}
      form={PlainForm}
      texts={BOX_TEXTS}
    />,
  );
}
