/** The shop's pages: home, the product list, a product's page, the cart. */
import { useState } from 'react';
import { CATEGORY, PRODUCTS, dataSheetUrl, price, productBySku, relatedTo, type Product } from '../catalog.ts';
import { fire, useImpressions } from '../events.ts';
import { Link } from '../router.tsx';
import { addToCart, removeFromCart, useStore } from '../store.ts';
import { NotFound } from './NotFound.tsx';

export function Home({ onSignUp }: { onSignUp: () => void }) {
  return (
    <>
      <section className="hero">
        <p className="eyebrow">Spring safety sale</p>
        <h1>Everything your crew needs to go home safe</h1>
        <p>Up to 20% off eye, hand and hearing protection through April.</p>
        <Link className="button primary" to="/products">Shop safety &amp; PPE</Link>
      </section>
      <section className="card">
        <h2>Get deals by email</h2>
        <p>Monthly safety tips and members-only prices.</p>
        <button type="button" className="button" id="open-signup" onClick={onSignUp}>Sign up</button>
      </section>
      <section className="card">
        <h2>Shop by category</h2>
        <ul className="chips">
          <li><Link to="/products">{CATEGORY.name}</Link></li>
          <li><Link to="/insights">Safety insights</Link></li>
        </ul>
      </section>
    </>
  );
}

function ProductCard({ p, list }: { p: Product; list: string }) {
  return (
    <li className="product" data-impression-id={`${list}:${p.sku}`}>
      <Link to={`/products/${p.sku}`}>
        <span className="thumb" aria-hidden="true">{p.sku.slice(0, 2)}</span>
        <span className="pname">{p.name}</span>
      </Link>
      <span className="price">{price(p.price)}</span>
      <span className="sku">Item {p.sku}</span>
    </li>
  );
}

export function ProductList() {
  const ref = useImpressions<HTMLUListElement>();
  return (
    <>
      <h1>{CATEGORY.name}</h1>
      <p className="hint">{PRODUCTS.length} products. Each card that comes into view is an element impression.</p>
      <ul className="products" ref={ref}>
        {PRODUCTS.map((p) => <ProductCard key={p.sku} p={p} list="plp" />)}
      </ul>
    </>
  );
}

export function ProductDetail({ sku }: { sku: string }) {
  const p = productBySku(sku);
  const ref = useImpressions<HTMLUListElement>();
  const [added, setAdded] = useState(0);
  if (!p) return <NotFound />;
  const add = () => {
    addToCart(p.sku);
    setAdded((n) => n + 1);
    fire('Element Interactions', { element: [{ click: { id: `add-to-cart:${p.sku}` } }] });
  };
  return (
    <>
      <p className="crumbs"><Link to="/products">{CATEGORY.name}</Link> › {p.leafCategoryName}</p>
      <div className="pdp">
        <span className="thumb big" aria-hidden="true">{p.sku.slice(0, 2)}</span>
        <div>
          <h1>{p.name}</h1>
          <p className="sku">Item {p.sku}</p>
          <p className="price big">{price(p.price)}</p>
          <p>{p.blurb}</p>
          <button type="button" className="button primary" id="add-to-cart" onClick={add}>Add to cart</button>
          {added > 0 && <p className="note" role="status">Added to your cart{added > 1 ? ` (${added}×)` : ''}. <Link to="/cart">View cart</Link></p>}
          <p className="links">
            <a id="data-sheet" href={dataSheetUrl(p.sku)} download>Safety data sheet (PDF)</a>
            {' · '}
            <a id="maker-link" href={`https://partner.example.org/catalog/${p.sku}`} target="_blank" rel="noopener noreferrer">Manufacturer's page ↗</a>
          </p>
        </div>
      </div>
      <h2>Related products</h2>
      <ul className="products" ref={ref}>
        {relatedTo(p.sku).map((r) => <ProductCard key={r.sku} p={r} list="pdp-related" />)}
      </ul>
    </>
  );
}

export function Cart() {
  const { cart } = useStore();
  const items = cart.map((sku) => productBySku(sku)).filter((p): p is Product => !!p);
  const total = items.reduce((t, p) => t + p.price, 0);
  return (
    <>
      <h1>Your cart</h1>
      {items.length === 0 ? (
        <p>Your cart is empty. <Link to="/products">Shop safety &amp; PPE</Link></p>
      ) : (
        <>
          <ul className="cart">
            {items.map((p, i) => (
              <li key={i}>
                <Link to={`/products/${p.sku}`}>{p.name}</Link> <span className="price">{price(p.price)}</span>
                <button type="button" className="link" onClick={() => removeFromCart(i)}>remove</button>
              </li>
            ))}
          </ul>
          <p className="total">Total {price(total)}</p>
          <p className="hint">Checkout is not part of the demo.</p>
        </>
      )}
    </>
  );
}
