// The launcher and the element's place on the page. Everything is inside the shadow root, so the
// page's CSS cannot reach in and this cannot leak out; only custom properties set on the host
// (--sb-color) cross the boundary, on purpose.
export const LOADER_CSS = `
:host{all:initial;position:fixed;z-index:2147483000;bottom:20px;right:20px;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color-scheme:light dark}
:host([position=left]){right:auto;left:20px}
:host([inline]){position:absolute}
.launcher{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;position:relative;width:56px;height:56px;border-radius:50%;border:0;padding:0;cursor:pointer;background:var(--sb-color,#2563eb);color:#fff;box-shadow:0 4px 14px rgba(0,0,0,.25);display:grid;place-items:center;transition:transform .15s}
.launcher:hover{transform:scale(1.06)}
.launcher:focus-visible{outline:3px solid #fff;outline-offset:2px;box-shadow:0 0 0 6px var(--sb-color,#2563eb)}
.launcher svg{width:28px;height:28px;fill:currentColor}
.badge{position:absolute;top:-4px;right:-4px;min-width:20px;height:20px;padding:0 5px;box-sizing:border-box;border-radius:10px;background:#b91c1c;color:#fff;font-size:12px;font-weight:700;line-height:20px;text-align:center}
.badge[hidden]{display:none}
:host([open]) .launcher{display:none}
@media (prefers-reduced-motion:reduce){.launcher{transition:none}.launcher:hover{transform:none}}
`;
