/**
 * The product's one error page. Every route's ErrorBoundary renders it with its area's words: what went wrong
 * in a sentence (403 says which roles may do this, 404 that there is nothing here) and a way back.
 */
import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";

export interface ErrorWords {
  title: string;
  text: string;
}

export interface ErrorPageWords {
  forbidden?: string | ErrorWords;
  notFound?: string | ErrorWords;
  back?: { to: string; label: string } | null;
  /** Words for a status the area explains itself (a closed form, a form not open yet); null falls back to the defaults. */
  explain?: (status: number, message: string | null) => ErrorWords | null;
}

const FORBIDDEN: ErrorWords = { title: "You may not do this", text: "Your role does not allow this. Ask an administrator of the club for the role you need." };
const NOT_FOUND: ErrorWords = { title: "Page not found", text: "There is nothing at this address on this site." };
const FAILED: ErrorWords = { title: "Something went wrong", text: "The page could not be shown. Please try again in a moment." };

const asWords = (words: string | ErrorWords | undefined, fallback: ErrorWords): ErrorWords =>
  words === undefined ? fallback : typeof words === "string" ? { title: fallback.title, text: words } : words;

/** Inside an area's layout the error is a section (h2) so the layout's navigation stays; as a page of its own (`page`) it is the main content. */
export function ErrorPage({ page = false, forbidden, notFound, back = { to: "/", label: "Home" }, explain }: ErrorPageWords & { page?: boolean }) {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = isRouteErrorResponse(error) && typeof error.data === "string" ? error.data : null;
  const words = explain?.(status, message) ?? (status === 403 ? asWords(forbidden, FORBIDDEN) : status === 404 ? asWords(notFound, NOT_FOUND) : FAILED);
  const Heading = page ? "h1" : "h2";
  const body = (
    <>
      <Heading id="error-heading">{words.title}</Heading>
      <p>{words.text}</p>
      {back ? (
        <p>
          <Link to={back.to}>← {back.label}</Link>
        </p>
      ) : null}
    </>
  );
  return page ? <main className="page">{body}</main> : <section aria-labelledby="error-heading">{body}</section>;
}

/** The race setup pages. */
export const RACE_SETUP_ERRORS: ErrorPageWords = {
  forbidden:
    "Changing a race's setup needs the Race Administrator or Technical Delegate role for this race, or All Races or Organization Admin for its club. Deleting a race needs Race Administrator, All Races or Organization Admin.",
  notFound: { title: "Not found", text: "There is no race or setup item at this address that you may see." },
  back: { to: "/manage", label: "Manage" },
};

/** The registration form builder, its reports and the club's finance pages. */
export const REGISTRATION_ADMIN_ERRORS: ErrorPageWords = {
  forbidden:
    "Changing a registration form needs the Registration Form Admin role for it, All Registrations or Organization Admin for its club, Site Administrator for its site, or a System Administrator with the registrations flag.",
  notFound: { title: "Not found", text: "There is no registration form or field at this address that you may see." },
  back: { to: "/club/registrations", label: "Registration forms" },
};

/** The pages a registrant fills in: no sign-in, so no role to name; the form's state is what went wrong. */
export const REGISTRATION_FLOW_ERRORS: ErrorPageWords = {
  forbidden: "This form is not open to you. Check the link you were given, or ask the organiser for it.",
  notFound: { title: "Registration form not found", text: "Check the link you were given, or ask the organiser for it." },
  back: null,
  explain(status, message) {
    if (status === 410) return { title: "Registration is closed", text: "This form no longer takes registrations." };
    if (status === 403 && message?.startsWith("Registration opens")) {
      const at = new Date(message.replace("Registration opens ", ""));
      return { title: "Registration is not open yet", text: `It opens ${Number.isNaN(at.getTime()) ? "soon" : at.toUTCString()}.` };
    }
    if (status === 400 && message) return { title: "That did not work", text: message };
    if (status >= 500) return { title: "Something went wrong", text: "Please try again in a moment." };
    return null;
  },
};

/** The application pages (/manage/apps). */
export const APPS_ERRORS: ErrorPageWords = {
  forbidden: {
    title: "You cannot manage applications",
    text: "Managing applications needs the API Client Admin or Organization Admin role. Ask an administrator of your organisation for one, or switch to a role that has it.",
  },
  notFound: { title: "Application not found", text: "There is no application at this address that you may manage on this site." },
  back: { to: "/manage/apps", label: "Applications" },
};

/** The club's Organization Admin pages (settings, Stripe's return and refresh). */
/** A club's newsletters. */
export const SHIPPING_ERRORS: ErrorPageWords = {
  forbidden: "This page is for the depot's Shipping Depot Admins and Users, and System Administrators with the depots flag.",
  notFound: "There is no such shipping depot or shipment.",
  back: { to: "/manage", label: "Manage" },
};

export const NEWSLETTER_ERRORS: ErrorPageWords = {
  forbidden:
    "Newsletters are for the club's Organization Admin and its Communications role. Ask the club's Organization Admin to give you the Communications role.",
  notFound: "There is no such newsletter, or it is not this club's.",
  back: { to: "/manage", label: "Manage" },
};

export const EVENT_PAGE_ERRORS: ErrorPageWords = {
  forbidden: "Event pages are for the club's Organization Admin. Ask them to give you the role.",
  notFound: "There is no such event page, or it is not this club's.",
  back: { to: "/manage", label: "Manage" },
};

export const CLUB_ADMIN_ERRORS: ErrorPageWords = {
  forbidden: "This page is for the club's Organization Admin. Ask them to give you the role, or open the club's overview instead.",
  notFound: "There is no such club, or it is not on this site.",
  back: { to: "/manage", label: "Manage" },
};

export const SERVER_ERRORS: ErrorPageWords = {
  forbidden: "A club's timing servers are for its Organization Admin. Ask them to give you the role.",
  notFound: "There is no such club, or it is not on this site.",
  back: { to: "/manage", label: "Manage" },
};

export const PASS_ERRORS: ErrorPageWords = {
  forbidden:
    "Passes and check-in are for the club's Organization Admin; check-in also for its Division Reports role. Ask the club's Organization Admin to give you the role.",
  notFound: "There is no such club, or it is not on this site.",
  back: { to: "/manage", label: "Manage" },
};

export const PASS_CARD_ERRORS: ErrorPageWords = {
  notFound: { title: "Card not found", text: "This card link is not valid. Ask the club for the link to your card again." },
  back: { to: "/", label: "Home" },
};

export const RANKING_ERRORS: ErrorPageWords = {
  forbidden: "Ranking lists are for the club's Organization Admin. Ask them to give you the role.",
  notFound: "There is no such ranking scheme, or it is not this club's.",
  back: { to: "/manage", label: "Manage" },
};
