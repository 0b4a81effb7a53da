import { Link, useLoaderData } from "@remix-run/react";

/** The body of a role home page: its title, who may see it, and the tools built so far that the user may use. */
export function RolePage() {
  const { title, who, tools } = useLoaderData<{ title: string; who: string[]; tools: { href: string; label: string }[] }>();
  return (
    <main className="page">
      <p>
        <Link to="/manage">← Manage</Link>
      </p>
      <h1>{title}</h1>
      <p>Who may see this page: {who.join(", ")}.</p>
      {tools.length > 0 ? (
        <ul className="plain-list">
          {tools.map((tool) => (
            <li key={`${tool.href} ${tool.label}`}>
              <Link to={tool.href}>{tool.label}</Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="empty-state">The tools of this page are on their way.</p>
      )}
    </main>
  );
}
