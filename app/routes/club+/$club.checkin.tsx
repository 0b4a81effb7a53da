import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { SetupForm, TextField } from "../../components/form-kit";
import { ErrorPage, PASS_ERRORS } from "../../components/error-page";
import { readPostedForm, unknownIntent } from "../../forms/posted-form.server";
import { checkPassAtGate, requirePassAccess, type CheckReply } from "../../passes.server";
import { ClubPage } from "../../components/club-page";

export const meta: MetaFunction = () => [{ title: "Check-in" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const access = await requirePassAccess(request, context, params.club ?? "", "view");
  // One id per shown form: the same scan sent twice is recorded once.
  return { clubId: access.club.id, clubName: access.club.name, check: crypto.randomUUID() };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const access = await requirePassAccess(request, context, params.club ?? "", "view");
  const posted = await readPostedForm(request);
  if (posted.intent !== "check") return unknownIntent(posted);
  return checkPassAtGate(context, access, posted);
}

export const ErrorBoundary = () => <ErrorPage page {...PASS_ERRORS} />;

interface Detector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
type DetectorClass = new (options: { formats: string[] }) => Detector;

/** The camera, where the browser has BarcodeDetector: a read code is put in the field and the form sent. */
function CameraScanner() {
  const [supported, setSupported] = useState(false);
  const [running, setRunning] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => setSupported("BarcodeDetector" in window && !!navigator.mediaDevices?.getUserMedia), []);
  useEffect(() => {
    if (!running) return;
    let stream: MediaStream | null = null;
    let timer = 0;
    let stopped = false;
    const Barcode = (window as unknown as { BarcodeDetector: DetectorClass }).BarcodeDetector;
    const detector = new Barcode({ formats: ["qr_code"] });
    const scan = async () => {
      if (stopped || !video.current) return;
      const found = await detector.detect(video.current).catch(() => []);
      const code = found[0]?.rawValue;
      if (code) {
        const field = document.getElementById("code") as HTMLInputElement | null;
        if (field) {
          field.value = code;
          field.form?.requestSubmit();
        }
        setRunning(false);
        return;
      }
      timer = window.setTimeout(scan, 250);
    };
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: "environment" } })
      .then(async (s) => {
        stream = s;
        if (stopped || !video.current) return;
        video.current.srcObject = s;
        await video.current.play();
        void scan();
      })
      .catch(() => {
        setProblem("The camera could not be opened. Type or paste the card's code below instead.");
        setRunning(false);
      });
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [running]);
  if (!supported) return null;
  return (
    <section aria-label="Camera">
      {running ? (
        <>
          <video ref={video} muted playsInline style={{ width: "100%", maxWidth: "24rem" }} />
          <p>
            <button type="button" className="secondary" onClick={() => setRunning(false)}>
              Stop the camera
            </button>
          </p>
        </>
      ) : (
        <p>
          <button type="button" onClick={() => setRunning(true)}>
            Scan with the camera
          </button>
        </p>
      )}
      {problem ? <p role="alert">{problem}</p> : null}
    </section>
  );
}

export default function CheckIn() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const answer: CheckReply | null = reply && "check" in reply ? reply.check : null;
  const errors = reply && "errors" in reply ? reply.errors : {};
  const checkId = reply && "next" in reply ? reply.next : data.check;
  // Each answer leaves the code selected in its field: the next scan (a scanner types fast) replaces it whole.
  useEffect(() => {
    if (!answer) return;
    const field = document.getElementById("code") as HTMLInputElement | null;
    field?.focus();
    field?.select();
  }, [answer]);
  return (
    <ClubPage clubId={data.clubId} title="Check-in">
      <p>{data.clubName}: scan a pass or member card with the camera, or paste the card's link into the field below.</p>
      {answer ? (
        <section role="status" aria-live="polite" className={`check-result check-${answer.result}`} data-testid="check-result">
          <h2>{answer.text}</h2>
          {answer.holder ? (
            <p>
              {answer.holder} · {answer.kind}
            </p>
          ) : null}
          {answer.detail ? <p>{answer.detail}</p> : null}
        </section>
      ) : null}
      <CameraScanner />
      <SetupForm intent="check" label="Check" busyLabel="Checking…" errors={errors} keepValues>
        <input type="hidden" name="check" value={checkId} />
        <TextField name="code" label="Card code or link" error={errors.code} required maxLength={2000} />
      </SetupForm>
    </ClubPage>
  );
}
