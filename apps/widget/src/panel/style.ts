// The panel, inside the element's shadow root: a card beside the launcher, the whole screen
// under 640 px; light or dark as the visitor's system is; no motion when they ask for less.
export const PANEL_CSS = `
.panel{--bg:#fff;--fg:#111827;--muted:#4b5563;--line:#e5e7eb;--them:#f3f4f6;--notice:#fef3c7;--notice-fg:#78350f;
font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;text-align:left;position:absolute;bottom:0;right:0;width:370px;height:min(600px,calc(100vh - 40px));display:flex;flex-direction:column;background:var(--bg);color:var(--fg);border-radius:14px;box-shadow:0 10px 40px rgba(0,0,0,.25);overflow:hidden;animation:sb-in .18s ease-out;box-sizing:border-box}
:host([position=left]) .panel{right:auto;left:0}
:host(:not([open])) .panel{display:none}
.panel *,.panel *::before,.panel *::after{box-sizing:border-box}
@keyframes sb-in{from{opacity:0;transform:translateY(12px)}}
header{display:flex;align-items:center;gap:10px;padding:12px 12px 12px 16px;background:var(--sb-color,#2563eb);color:#fff}
header img{width:32px;height:32px;border-radius:50%;object-fit:cover;background:#fff}
h2{flex:1;margin:0;font-size:16px;font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
button{font:inherit}
.close{width:36px;height:36px;border:0;border-radius:8px;background:transparent;color:inherit;cursor:pointer;font-size:22px;line-height:1}
.close:hover{background:rgba(255,255,255,.18)}
.close:focus-visible,.send:focus-visible,textarea:focus-visible,.retry:focus-visible,.log:focus-visible{outline:3px solid var(--sb-color,#2563eb);outline-offset:2px}
.close:focus-visible{outline-color:#fff}
.log{flex:1;overflow-y:auto;overflow-x:hidden;padding:14px;display:flex;flex-direction:column;gap:8px}
.msg{max-width:85%;padding:8px 12px;border-radius:14px;overflow-wrap:anywhere;white-space:normal}
.msg p{margin:0}.msg p+p,.msg p+ul,.msg p+ol,.msg ul+p,.msg ol+p{margin-top:6px}
.msg ul,.msg ol{margin:0;padding-left:20px}
.msg code{font:13px ui-monospace,monospace;background:rgba(127,127,127,.18);padding:0 3px;border-radius:4px}
.msg a{color:inherit;text-decoration:underline}
.agent{align-self:flex-start;background:var(--them);border-bottom-left-radius:4px}
.visitor{align-self:flex-end;background:var(--sb-color,#2563eb);color:#fff;border-bottom-right-radius:4px}
.visitor.pending{opacity:.7}
.failed-send{align-self:flex-end;font-size:13px;color:#b91c1c}
.retry{border:0;background:none;color:inherit;text-decoration:underline;cursor:pointer;padding:0 4px}
.streaming::after{content:"▍";animation:sb-blink 1s steps(1) infinite}
@keyframes sb-blink{50%{opacity:0}}
.typing{align-self:flex-start;display:flex;gap:4px;padding:12px 14px;background:var(--them);border-radius:14px}
.typing[hidden]{display:none}
.typing span{width:7px;height:7px;border-radius:50%;background:var(--muted);animation:sb-dot 1.2s infinite}
.typing span:nth-child(2){animation-delay:.2s}.typing span:nth-child(3){animation-delay:.4s}
@keyframes sb-dot{0%,60%,100%{opacity:.3}30%{opacity:1}}
.notice{margin:0;padding:8px 14px;background:var(--notice);color:var(--notice-fg);font-size:13px}
.notice[hidden]{display:none}
form{display:flex;gap:8px;padding:10px;border-top:1px solid var(--line)}
textarea{flex:1;min-width:0;resize:none;border:1px solid var(--line);border-radius:10px;padding:8px 10px;font:inherit;color:inherit;background:transparent;max-height:120px}
.send{flex:none;width:40px;border:0;border-radius:10px;background:var(--sb-color,#2563eb);color:#fff;cursor:pointer}
.send svg{width:20px;height:20px;fill:currentColor;vertical-align:middle}
.sr{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);border:0}
@media (max-width:639.98px){:host([open]){inset:0}.panel{position:fixed;inset:0;width:100%;height:100%;border-radius:0;animation:none}}
@media (prefers-color-scheme:dark){.panel{--bg:#111827;--fg:#f3f4f6;--muted:#9ca3af;--line:#374151;--them:#1f2937;--notice:#422006;--notice-fg:#fde68a}}
@media (prefers-reduced-motion:reduce){.panel,.typing span,.streaming::after{animation:none}}
`;
