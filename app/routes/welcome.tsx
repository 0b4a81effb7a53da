import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AuthCard } from "../components/auth-card";

export const meta: MetaFunction = () => [{ title: "Welcome" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return { email: new URL(request.url).searchParams.get("email") };
}

export default function Welcome() {
  const { email } = useLoaderData<typeof loader>();
  return (
    <AuthCard title="Welcome!">
      <p>Your account is ready. We sent a sign-in link to {email ? <strong>{email}</strong> : "your email address"}.</p>
      <p>Open it within ten minutes to sign in. It can be used only once; you can always ask for a new one on the sign-in page.</p>
      <p>
        <a href="/login">Go to sign in</a>
      </p>
    </AuthCard>
  );
}
