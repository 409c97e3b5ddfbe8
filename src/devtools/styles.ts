/** The overlay's styles, inside its shadow root so the page's CSS cannot touch it. */
export const CSS = `
.panel { position: fixed; right: 12px; bottom: 12px; width: min(560px, calc(100vw - 24px)); max-height: 60vh;
  display: flex; flex-direction: column; background: #111722; color: #e6e9ef; border-radius: 10px;
  font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; box-shadow: 0 8px 30px #0006; z-index: 2147483647; }
.panel.left { right: auto; left: 12px; }
header { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; padding: 8px 10px; border-bottom: 1px solid #2a3242; }
header strong { margin-right: 6px; color: #ff6b81; }
button { font: inherit; color: inherit; background: #1d2533; border: 1px solid #2f3a4f; border-radius: 6px; padding: 3px 8px; cursor: pointer; }
button.on { background: #ff6b81; color: #111722; border-color: #ff6b81; }
button.close { margin-left: auto; }
button.row { width: 100%; text-align: left; }
.publishing { display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: center; padding: 6px 10px; border-bottom: 1px solid #2a3242; color: #9aa6bd; }
.publishing b { color: #e6e9ef; font-weight: normal; }
button:disabled { cursor: default; }
section { overflow: auto; padding: 8px 10px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 2px 6px; border-bottom: 1px solid #222a38; word-break: break-all; }
th { color: #9aa6bd; font-weight: normal; white-space: nowrap; }
ol { margin: 0; padding-left: 18px; } li { margin: 4px 0; }
`;
