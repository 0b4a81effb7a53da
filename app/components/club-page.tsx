import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** A club tool's page: the way back to the club's overview (and the tool's other links), its heading, then the tool. */
export function ClubPage({ clubId, title, links, children }: { clubId: string; title: ReactNode; links?: ReactNode; children: ReactNode }) {
  return (
    <main className="page">
      <p>
        <Link to={`/club/${clubId}/overview`}>← Club overview</Link>
        {links}
      </p>
      <h1>{title}</h1>
      {children}
    </main>
  );
}
