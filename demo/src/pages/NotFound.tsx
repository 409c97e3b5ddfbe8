import { Link } from '../router.tsx';

export function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>That page is not in the demo store. <Link to="/">Back to the home page</Link></p>
    </>
  );
}
