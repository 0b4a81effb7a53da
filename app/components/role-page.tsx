import { Link, useLoaderData } from "@remix-run/react";

/** The body of a role home page that is not built yet: its title and who may see it. */
export function RolePage() {
  const { title, who } = useLoaderData<{ title: string; who: string[] }>();
  return (
    <main className="page">
      <p>
        <Link to="/manage">← Manage</Link>
      </p>
      <h1>{title}</h1>
      <p>Who may see this page: {who.join(", ")}.</p>
      <p className="empty-state">The tools of this page are on their way.</p>
    </main>
  );
}
