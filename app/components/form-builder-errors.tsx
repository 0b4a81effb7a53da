/** The error page of the registration pages: 403 says which roles may do this, 404 that there is nothing here. */
import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";

const FORBIDDEN_TEXT =
  "Changing a registration form needs the Registration Form Admin role for it, All Registrations or Organization Admin for its club, Site Administrator for its site, or a System Administrator with the registrations flag.";

/** Inside the builder layout it is a section; as a page of its own (`page`) it is the main content. */
export function RegistrationErrorBoundary({
  page = false,
  forbidden = FORBIDDEN_TEXT,
  back = { to: "/club/registrations", label: "Registration forms" },
}: {
  page?: boolean;
  forbidden?: string;
  back?: { to: string; label: string };
}) {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const title = status === 403 ? "You may not do this" : status === 404 ? "Not found" : "Something went wrong";
  const text =
    status === 403
      ? forbidden
      : status === 404
        ? "There is no registration form or field at this address that you may see."
        : "The page could not be shown. Please try again in a moment.";
  const Heading = page ? "h1" : "h2";
  const body = (
    <>
      <Heading id="registration-error-heading">{title}</Heading>
      <p>{text}</p>
      <p>
        <Link to={back.to}>← {back.label}</Link>
      </p>
    </>
  );
  return page ? <main className="page">{body}</main> : <section aria-labelledby="registration-error-heading">{body}</section>;
}
