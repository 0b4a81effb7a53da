import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { ErrorPage, PASS_CARD_ERRORS } from "../../components/error-page";
import { passCardData } from "../../passes.server";

// A card is personal: search engines keep out, and the browser's title says whose it is only on the device.
export const meta: MetaFunction = () => [{ title: "Card" }, { name: "robots", content: "noindex" }];

/** Anyone with the signed link opens it, no account needed; a wrong or edited link is a 404. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return passCardData(context, request, params.id ?? "");
}

export const ErrorBoundary = () => <ErrorPage page {...PASS_CARD_ERRORS} />;

const PRINT_CSS = `@media print { .print-tools, header, footer, nav { display: none !important; } .pass-card { border: 1px solid #000; break-inside: avoid; } }
.pass-card { max-width: 26rem; border: 2px solid var(--primary, #1f2937); border-radius: 12px; padding: 1rem 1.2rem; }
.pass-card dl { display: grid; grid-template-columns: auto 1fr; gap: 0.2rem 0.8rem; margin: 0.6rem 0; }
.pass-card dt { font-weight: 600; } .pass-card .qr svg { width: 100%; max-width: 16rem; height: auto; display: block; margin: 0.6rem auto 0; }
.pass-status-valid { color: #166534; } .pass-status-expired, .pass-status-revoked, .pass-status-not_yet_valid { color: #b91c1c; }`;

export default function PassCard() {
  const card = useLoaderData<typeof loader>();
  return (
    <main className="page">
      <style dangerouslySetInnerHTML={{ __html: PRINT_CSS }} />
      <article className="pass-card" aria-label={`${card.kind} of ${card.holder}`}>
        <p>{card.club}</p>
        <h1>{card.holder}</h1>
        <dl>
          <dt>Card</dt>
          <dd>{card.kind}</dd>
          {card.season ? (
            <>
              <dt>Season</dt>
              <dd>{card.season}</dd>
            </>
          ) : null}
          <dt>Number</dt>
          <dd>{card.number}</dd>
          <dt>Valid</dt>
          <dd>
            {card.validFrom || "—"} to {card.validUntil || "—"}
          </dd>
          <dt>Status</dt>
          <dd className={`pass-status-${card.statusKey}`} data-testid="pass-status">
            {card.status}
          </dd>
          <dt>Last check-in</dt>
          <dd data-testid="pass-last-check">{card.lastCheck ?? "Never"}</dd>
        </dl>
        {/* The SVG is made on the server from the card's own signed link (uqr); it holds no text of the holder's. */}
        <div className="qr" role="img" aria-label="QR code of this card, for check-in" dangerouslySetInnerHTML={{ __html: card.qrSvg }} />
      </article>
      <p className="print-tools actions">
        <button type="button" className="secondary" onClick={() => window.print()}>
          Print
        </button>
      </p>
    </main>
  );
}
