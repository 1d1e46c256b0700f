// widget.js: what the snippet loads on every page view. It draws the launcher and defines
// window.Switchboard, and makes no request until the visitor (or the page, through the API) opens
// the chat; then it loads the panel bundle named below (content-hashed by the build) once.
import { adoptStyles } from './adopt-styles';
import type { Looks, MountPanel, Panel, PanelHost, PreviewSettings, VisitorEvent, WidgetMessage, WidgetOptions } from './bridge';
import { byLocale, fill, pickLocale } from './i18n';
import { LOADER_CSS } from './loader-style';

declare const __PANEL_PATH__: string;

interface LauncherStrings {
  open: string;
  close: string;
  unread: string;
}

const LAUNCHER_STRINGS = byLocale(import.meta.glob<LauncherStrings>('./locales/*.json', { eager: true, import: 'launcher' }));
const ICON = '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z"/></svg>';
const TAG = 'switchboard-chat';

type Listener = (data?: WidgetMessage) => void;

(() => {
  if (customElements.get(TAG)) return; // the snippet pasted twice
  const script = document.currentScript as HTMLScriptElement | null;
  if (!script?.src) return;
  const apiBase = new URL('./', script.src).href;
  const listeners: Record<VisitorEvent, Set<Listener>> = { message: new Set(), open: new Set(), close: new Set() };
  const emit = (event: VisitorEvent, data?: WidgetMessage) => listeners[event].forEach((fn) => fn(data));
  let mountPanel: Promise<MountPanel> | undefined;
  // identify() before the chat opens is kept here: it must not cause a request on its own.
  let pendingIdentity: Record<string, unknown> | undefined;

  /** Loads the panel bundle once (a classic script, so `script-src` with the API's origin is all a CSP needs). */
  function loadPanel(): Promise<MountPanel> {
    mountPanel ??= new Promise<MountPanel>((resolve, reject) => {
      Chat.resolvePanel = resolve;
      const s = document.createElement('script');
      s.src = new URL(__PANEL_PATH__, apiBase).href;
      s.async = true;
      s.onerror = () => {
        mountPanel = undefined; // the next open tries again
        reject(new Error('the chat panel could not be loaded'));
      };
      document.head.appendChild(s);
    });
    return mountPanel;
  }

  class Chat extends HTMLElement {
    static resolvePanel?: (mount: MountPanel) => void;
    /** Called by the panel bundle when it has loaded. */
    static panelLoaded(mount: MountPanel): void {
      Chat.resolvePanel?.(mount);
    }

    private readonly shadow = this.attachShadow({ mode: 'open' });
    private readonly launcher = document.createElement('button');
    private readonly badge = document.createElement('span');
    private readonly slotEl = document.createElement('div');
    private panel?: Panel;
    private opening?: Promise<Panel>;
    private strings: LauncherStrings = LAUNCHER_STRINGS.en;
    private unreadCount = 0;
    private previewSettings?: PreviewSettings;

    constructor() {
      super();
      adoptStyles(this.shadow, LOADER_CSS);
      this.launcher.className = 'launcher';
      this.launcher.type = 'button';
      this.launcher.setAttribute('aria-haspopup', 'dialog');
      this.launcher.setAttribute('aria-expanded', 'false');
      this.launcher.innerHTML = ICON; // our own constant markup, never data
      this.badge.className = 'badge';
      this.badge.hidden = true;
      this.badge.setAttribute('aria-hidden', 'true');
      this.launcher.append(this.badge);
      this.launcher.addEventListener('click', () => void this.open().catch((err: Error) => console.warn(`Switchboard chat: ${err.message}`)));
      this.shadow.append(this.launcher, this.slotEl);
    }

    connectedCallback(): void {
      this.looks({ color: this.dataset.color, position: this.dataset.position as Looks['position'], language: this.dataset.language });
    }

    /** The console's live preview: the panel opens on these settings with a sample conversation. */
    set preview(settings: PreviewSettings) {
      this.previewSettings = settings;
      this.looks(settings);
      if (this.panel) this.panel.preview(settings);
      else void this.open();
    }

    looks(l: Looks): void {
      if (l.color && /^#[0-9a-fA-F]{6}$/.test(l.color)) this.style.setProperty('--sb-color', l.color);
      if (l.position === 'left' || l.position === 'right') this.setAttribute('position', l.position);
      if (l.language) this.strings = LAUNCHER_STRINGS[pickLocale(Object.keys(LAUNCHER_STRINGS), l.language, navigator.languages)];
      this.label();
    }

    async open(): Promise<Panel> {
      const panel = await this.ensurePanel();
      if (!this.hasAttribute('open')) {
        this.setAttribute('open', '');
        this.launcher.setAttribute('aria-expanded', 'true');
        this.unread(0);
        panel.opened();
        emit('open');
      }
      return panel;
    }

    close(): void {
      if (!this.hasAttribute('open')) return;
      this.removeAttribute('open');
      this.launcher.setAttribute('aria-expanded', 'false');
      this.launcher.focus(); // focus returns to what opened the chat
      emit('close');
    }

    ensurePanel(): Promise<Panel> {
      this.opening ??= loadPanel().then((mount) => {
        const options: WidgetOptions = {
          apiBase,
          widgetId: this.dataset.widget ?? '',
          color: this.dataset.color,
          position: this.dataset.position as Looks['position'],
          language: this.dataset.language,
          preview: this.previewSettings,
        };
        const host: PanelHost = {
          options,
          root: this.slotEl,
          shadow: this.shadow,
          close: () => this.close(),
          unread: (n) => this.unread(n),
          looks: (l) => this.looks(l),
          emit: (_event, message) => emit('message', message),
          isOpen: () => this.hasAttribute('open'),
        };
        this.panel = mount(host);
        if (pendingIdentity) this.panel.identify(pendingIdentity);
        pendingIdentity = undefined;
        return this.panel;
      });
      this.opening.catch(() => (this.opening = undefined));
      return this.opening;
    }

    panelIfLoaded(): Panel | undefined {
      return this.panel;
    }

    private unread(n: number): void {
      this.unreadCount = n;
      this.badge.hidden = n === 0;
      this.badge.textContent = n > 9 ? '9+' : String(n);
      this.label();
    }

    private label(): void {
      const unread = this.unreadCount ? ` (${fill(this.strings.unread, { n: this.unreadCount })})` : '';
      this.launcher.setAttribute('aria-label', this.strings.open + unread);
      this.launcher.title = this.strings.open;
    }
  }

  customElements.define(TAG, Chat);

  let element: Chat | undefined;
  if (script.dataset.widget && !script.hasAttribute('data-preview')) {
    element = document.createElement(TAG) as Chat;
    for (const key of ['widget', 'color', 'position', 'language'] as const) {
      const value = script.dataset[key];
      if (value) element.dataset[key] = value;
    }
    const attach = () => document.body.appendChild(element!);
    if (document.body) attach();
    else document.addEventListener('DOMContentLoaded', attach, { once: true });
  }
  const chat = () => element ?? (document.querySelector(TAG) as Chat | null);

  // The page's handle: open(), close(), send(text), identify({...}), on(event, fn).
  (window as unknown as { Switchboard: unknown }).Switchboard = {
    open: () => void chat()?.open(),
    close: () => chat()?.close(),
    send: (text: string) => void chat()?.open().then((p) => p.send(String(text))),
    identify: (values: Record<string, unknown>) => {
      const panel = chat()?.panelIfLoaded();
      if (panel) panel.identify(values);
      else pendingIdentity = { ...values };
    },
    on: (event: VisitorEvent, fn: Listener) => {
      listeners[event]?.add(fn);
      return () => listeners[event]?.delete(fn);
    },
  };
})();
