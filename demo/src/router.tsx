/**
 * A tiny client-side router: `history.pushState`, `popstate`, and a `<Link>` that navigates without
 * a page load. The insights area is its own document (see `isOwnDocument`): moving into or out of
 * it is a real page load, because the container decides on Datadog RUM at Window Loaded.
 */
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());
addEventListener('popstate', notify);

/** The insights area (`/insights…`) is served as its own document, as a separate app would be. */
export const inInsights = (path: string) => path === '/insights' || path.startsWith('/insights/');

/** A route change that must be a page load: it crosses the insights area's boundary. */
const isOwnDocument = (from: string, to: string) => inInsights(from) !== inInsights(to);

/** The current path, without a trailing slash (`/` stays `/`). */
export const currentPath = () => (location.pathname.length > 1 ? location.pathname.replace(/\/+$/, '') : '/');

export function usePath(): string {
  return useSyncExternalStore(
    (l) => (listeners.add(l), () => listeners.delete(l)),
    currentPath,
  );
}

export function navigate(to: string, { replace = false } = {}): void {
  const url = new URL(to, location.href);
  if (url.origin !== location.origin || isOwnDocument(location.pathname, url.pathname)) {
    location.assign(url.href);
    return;
  }
  if (url.pathname === location.pathname && url.search === location.search) return;
  history[replace ? 'replaceState' : 'pushState'](null, '', url.pathname + url.search + url.hash);
  scrollTo(0, 0);
  notify();
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string };

/** An `<a href>` that routes on a plain left click and behaves as a link otherwise (new tab, copy). */
export function Link({ to, onClick, ...rest }: LinkProps) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={click} {...rest} />;
}

export type Route =
  | { name: 'home' }
  | { name: 'products' }
  | { name: 'product'; sku: string }
  | { name: 'cart' }
  | { name: 'account' }
  | { name: 'orders' }
  | { name: 'insights' }
  | { name: 'article'; slug: string }
  | { name: 'not-found'; path: string };

export function match(path: string): Route {
  let m: RegExpExecArray | null;
  if (path === '/') return { name: 'home' };
  if (path === '/products') return { name: 'products' };
  if ((m = /^\/products\/([^/]+)$/.exec(path))) return { name: 'product', sku: decodeURIComponent(m[1]!) };
  if (path === '/cart') return { name: 'cart' };
  if (path === '/account') return { name: 'account' };
  if (path === '/account/orders') return { name: 'orders' };
  if (path === '/insights') return { name: 'insights' };
  if ((m = /^\/insights\/([^/]+)$/.exec(path))) return { name: 'article', slug: decodeURIComponent(m[1]!) };
  return { name: 'not-found', path };
}
