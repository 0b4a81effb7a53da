/** Previous and next links of a list shown a page at a time (nothing when it fits on one page). */
import { Link } from "@remix-run/react";

export function PageLinks({
  page,
  pages,
  link,
  className = "actions",
  label = "Pages",
}: {
  page: number;
  pages: number;
  link: (page: number) => string;
  className?: string;
  /** Two of them on one page need names of their own. */
  label?: string;
}) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className={className}>
      {page > 1 ? (
        <Link to={link(page - 1)} rel="prev">
          ← Previous page
        </Link>
      ) : null}
      {page < pages ? (
        <Link to={link(page + 1)} rel="next">
          Next page →
        </Link>
      ) : null}
    </nav>
  );
}
