/**
 * The INP page (bench/lib/measure.ts `inpRun`): a small React 19 product card whose button's click
 * handler updates React state and calls `_satellite.track('Element Interactions')`, as a site's
 * own code does. The variant's script on the page provides `_satellite`. The handler times itself
 * (`window.__inpHandlerMs`); Event Timing measures the click to the next paint.
 */
import { createElement as h, useState } from 'react';
import { createRoot } from 'react-dom/client';

const w = window as unknown as { _satellite?: { track(id: string): void }; __inpHandlerMs: number[] };
w.__inpHandlerMs = [];

function ProductCard() {
  const [inCart, setInCart] = useState(0);
  const onClick = () => {
    const t0 = performance.now();
    setInCart((n) => n + 1);
    w._satellite?.track('Element Interactions');
    w.__inpHandlerMs.push(performance.now() - t0);
  };
  return h(
    'main',
    null,
    h('h2', null, 'Safety Glasses, Clear Lens'),
    h('p', { id: 'in-cart' }, `In cart: ${inCart}`),
    h(
      'ul',
      null,
      Array.from({ length: 30 }, (_, i) => h('li', { key: i }, `Specification ${i + 1}: ${(i + 1) * (inCart + 1)} units`)),
    ),
    h('button', { id: 'add', onClick }, 'Add to cart'),
  );
}

createRoot(document.getElementById('root')!).render(h(ProductCard));
