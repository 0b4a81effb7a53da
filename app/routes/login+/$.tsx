import type { MetaFunction } from "@remix-run/cloudflare";
import { useEffect } from "react";
import { INVALID_PATH_REDIRECT_MS } from "../../../core/auth/constants";
import { authMessages } from "../../../core/auth/messages";
import { AuthCard } from "../../components/auth-card";

export const meta: MetaFunction = () => [
  { title: authMessages.invalidPath },
  // Before hydration too: the browser itself moves on after 3 seconds.
  { httpEquiv: "refresh", content: `${INVALID_PATH_REDIRECT_MS / 1000};url=/login` },
];

/** Any sign-in path that does not exist. */
export default function InvalidLoginPath() {
  useEffect(() => {
    const timer = setTimeout(() => location.assign("/login"), INVALID_PATH_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <AuthCard title={authMessages.invalidPath}>
      <p>
        <a href="/login">Go to sign in now</a>
      </p>
    </AuthCard>
  );
}
