/**
 * The demo storefront (React, built by tools/build.mjs into dist/demo/, served by `offtag serve`).
 * The page embeds Offtag as a site would: `/offtag-config.js` sets `window.offtagConfig` to the
 * local servers, and offtag.js is one async script tag from another origin (index.html).
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { dataLayer, pageInfo } from './datalayer.ts';
import { currentPath, match } from './router.tsx';
import { getState } from './store.ts';
import './styles.css';

// The data layer of the page as loaded, before anything renders (Window Loaded reads it too).
(window as { digitalData?: unknown }).digitalData = dataLayer(pageInfo(match(currentPath()), getState()), getState());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
