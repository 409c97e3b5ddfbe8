/** The demo storefront: header, the page of the current route, privacy choices, and the collector panel beside it. */
import { useCallback, useEffect, useState } from 'react';
import { CollectorPanel } from './CollectorPanel.tsx';
import { fire } from './events.ts';
import { Privacy } from './Privacy.tsx';
import { Link, inInsights, match, usePath, type Route } from './router.tsx';
import { SignUpModal } from './SignUpModal.tsx';
import { DEMO_ACCOUNT, useStore } from './store.ts';
import { Account, Orders } from './pages/account.tsx';
import { Article, Insights } from './pages/insights.tsx';
import { NotFound } from './pages/NotFound.tsx';
import { Cart, Home, ProductDetail, ProductList } from './pages/shop.tsx';

function Page({ route, onSignUp }: { route: Route; onSignUp: () => void }) {
  switch (route.name) {
    case 'home': return <Home onSignUp={onSignUp} />;
    case 'products': return <ProductList />;
    case 'product': return <ProductDetail sku={route.sku} />;
    case 'cart': return <Cart />;
    case 'account': return <Account />;
    case 'orders': return <Orders />;
    case 'insights': return <Insights />;
    case 'article': return <Article slug={route.slug} />;
    case 'not-found': return <NotFound />;
  }
}

export function App() {
  const path = usePath();
  const route = match(path);
  const { profile, cart } = useStore();
  const [signUp, setSignUp] = useState(false);
  const openSignUp = useCallback(() => setSignUp(true), []);
  const closeSignUp = useCallback(() => setSignUp(false), []);

  // The router integration: after each route change has rendered, the data layer describes the
  // new page and `Page View` fires (once per route, the first one at load).
  useEffect(() => {
    document.title = `${route.name === 'home' ? 'Acme Industrial Supply' : (document.querySelector('main h1')?.textContent ?? 'Acme')} — Offtag demo`;
    fire('Page View');
  }, [path]);

  const login = profile.attributes.loginState;
  const insights = inInsights(path);
  return (
    <div className="shell">
      <div className="store">
        <header className="top">
          <Link to="/" className="logo"><strong>Acme</strong> Industrial Supply</Link>
          <span className="tag">Offtag demo</span>
          <nav>
            <Link to="/products" className={route.name === 'products' || route.name === 'product' ? 'on' : ''}>Products</Link>
            <Link to="/insights" className={insights ? 'on' : ''}>Insights</Link>
            <Link to="/account" id="nav-account" className={route.name === 'account' || route.name === 'orders' ? 'on' : ''}>
              {login === 'Full Logged In' ? `Hi, ${DEMO_ACCOUNT.name}` : login === 'Soft Logged In' ? `Sign in, ${DEMO_ACCOUNT.name}` : 'Sign in'}
            </Link>
            <Link to="/cart" id="nav-cart" className={route.name === 'cart' ? 'on' : ''}>Cart ({cart.length})</Link>
            <button type="button" className="to-panel" onClick={() => document.getElementById('collector')?.scrollIntoView()}>Beacons ↓</button>
          </nav>
        </header>
        <main key={path}>
          <Page route={route} onSignUp={openSignUp} />
        </main>
        <footer>
          <p className="login-state">
            Login state: <strong id="login-state">{login}</strong> ·{' '}
            <button type="button" className="link" onClick={openSignUp}>Get deals by email</button>
          </p>
          <Privacy />
        </footer>
      </div>
      <CollectorPanel />
      {signUp && <SignUpModal onClose={closeSignUp} />}
    </div>
  );
}
