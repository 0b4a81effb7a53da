/** Any path no route claims: a 404 in the site's own layout. */
export async function loader() {
  throw new Response("Not found", { status: 404 });
}

export default function NotFound() {
  return null;
}
