import type { MetaFunction } from "@remix-run/cloudflare";
import { INVALID_PATH_REDIRECT_MS } from "../../../core/auth/constants";
import { authMessages } from "../../../core/auth/messages";
import { AuthCard } from "../../components/auth-card";

export const meta: MetaFunction = () => [
  { title: authMessages.invalidPath },
  // The browser itself moves on after 3 seconds, with or without scripts. A script timer as well raced it:
  // two navigations at once, one aborted (seen as a flaky ERR_ABORTED in the browser test).
  { httpEquiv: "refresh", content: `${INVALID_PATH_REDIRECT_MS / 1000};url=/login` },
];

/** Any sign-in path that does not exist. */
export default function InvalidLoginPath() {
  return (
    <AuthCard title={authMessages.invalidPath}>
      <p>
        <a href="/login">Go to sign in now</a>
      </p>
    </AuthCard>
  );
}
