import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { receiptLang, receiptOfCart } from "../../../workers/services/receipts";
import { receiptPdf } from "../../../workers/services/receipt-pdf";
import { downloadName } from "../../keypad.server";
import { receiptCart } from "../../registration-public.server";

/** `/register/:id/receipt.pdf`: the receipt as a PDF, opened as the receipt page is (the mailed link or the cart's cookie). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { db, registration, cart } = await receiptCart(request, context, params.registrationId);
  const asked = new URL(request.url).searchParams.get("lang");
  const lang = registration.isBilingual && (asked === "fr" || asked === "en") ? asked : receiptLang(cart, registration);
  const receipt = await receiptOfCart(db, registration, cart, lang);
  return new Response(receiptPdf(receipt, registration), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${downloadName(registration.name, `receipt-${receipt.number}`)}.pdf"`,
      // A receipt changes (a refund, a transfer) and is private: never kept by a browser or a proxy.
      "Cache-Control": "private, no-store",
    },
  });
}
