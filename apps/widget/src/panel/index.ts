// The chat panel, loaded by widget.js the first time the chat opens. It owns the conversation:
// the visitor token, the history, sends that survive drops, and the live replies.
import { adoptStyles } from '../adopt-styles';
import type { MountPanel, Panel, PanelHost, PreviewSettings } from '../bridge';
import { WidgetApiError, WidgetClient, type Grant, type HistoryMessage, type IdentifyBody } from './client';
import type { SseMessage } from './sse';
import { panelStrings, type PanelStrings } from './strings';
import { PANEL_CSS } from './style';
import { PanelView } from './view';

/** With a message waiting and no sign of its reply for this long, stop the dots and say so. */
const QUIET_MS = 60_000;

interface Committed {
  turnId: string;
  answered?: string[];
  replies?: { id: string; text: string }[];
  /** Set by publishers that report how a turn ended (`failed`, `deferred`). */
  status?: string;
}

function newClientId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

class ChatPanel implements Panel {
  private readonly view: PanelView;
  private strings: PanelStrings;
  private readonly client: WidgetClient;
  private started?: Promise<boolean>;
  private following?: AbortController;
  private cursor = '0-0';
  /** Server ids of the visitor's messages not answered yet, and the widget id each came from. */
  private readonly awaiting = new Map<string, string>();
  private readonly previews = new Map<string, string>();
  /** Turns whose preview was cut by a reconnect: their later deltas are fragments, so wait for the commit. */
  private readonly broken = new Set<string>();
  private handedOff = false;
  private unread = 0;
  private quiet?: ReturnType<typeof setTimeout>;
  private identity?: Record<string, unknown>;

  constructor(private readonly host: PanelHost) {
    this.strings = panelStrings(host.options.language);
    this.view = new PanelView(this.strings);
    this.client = new WidgetClient(host.options.apiBase, host.options.widgetId);
    adoptStyles(host.shadow, PANEL_CSS);
    host.root.append(this.view.panel);
    this.view.onClose(() => host.close());
    this.view.panel.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        host.close();
      }
    });
    this.view.form.addEventListener('submit', (e) => {
      e.preventDefault();
      const text = this.view.input.value.trim();
      if (!text) return;
      this.view.input.value = '';
      this.send(text);
    });
    this.view.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        this.view.form.requestSubmit();
      }
    });
    if (host.options.preview) this.preview(host.options.preview);
  }

  opened(): void {
    this.unread = 0;
    if (this.host.options.preview) return; // the console's preview must not take the focus from its form
    this.view.input.focus();
    void this.start();
  }

  preview(s: PreviewSettings): void {
    this.applySettings({ ...s, color: s.color ?? '#2563eb', position: s.position ?? 'right', language: s.language ?? 'auto' });
    this.view.showMessage('sample:q', 'visitor', this.strings.sampleQuestion);
    this.view.showMessage('sample:a', 'agent', this.strings.sampleAnswer);
  }

  identify(values: Record<string, unknown>): void {
    this.identity = values;
    // Sent once the chat has started (begin() sends what is kept); identify() alone starts nothing.
    void this.started?.then((ok) => {
      if (ok) void this.sendIdentity();
    });
  }

  send(text: string): void {
    const clientId = newClientId();
    const key = `v:${clientId}`;
    this.view.showMessage(key, 'visitor', text, 'pending');
    this.host.emit('message', { id: clientId, from: 'visitor', text });
    if (this.host.options.preview) return;
    void this.deliver(clientId, key, text);
  }

  private async deliver(clientId: string, key: string, text: string): Promise<void> {
    if (!(await this.start())) {
      this.view.markNotSent(key, () => void this.deliver(clientId, key, text));
      return;
    }
    try {
      const accepted = await this.client.send(clientId, text);
      this.view.showMessage(key, 'visitor', text);
      if (accepted.status === 'queued') this.awaiting.set(accepted.messageId, clientId);
      this.refreshTyping();
      this.follow();
    } catch (err) {
      // Over the tenant's quota or budget the message is kept but not answered: the agent's
      // fallback message answers it, as a turn that cannot run would.
      if (err instanceof WidgetApiError && err.code === 'quota-exceeded' && err.fallbackMessage) {
        this.view.showMessage(key, 'visitor', text);
        this.view.showMessage(`f:${clientId}`, 'agent', err.fallbackMessage);
        return;
      }
      if (err instanceof WidgetApiError && err.status === 429) this.view.setNotice(this.strings.tooMany);
      this.view.markNotSent(key, () => void this.deliver(clientId, key, text));
    }
  }

  /** The visitor token and the history, once; false while the chat cannot start (shown in the notice). */
  private start(): Promise<boolean> {
    this.started ??= this.begin().catch((err: unknown) => {
      this.started = undefined; // the next open or send tries again
      // A page on an origin the channel does not allow gets no CORS answer: fetch only sees a network error.
      console.warn(`Switchboard chat: could not start (${(err as Error).message}). Is ${location.origin} among the widget's allowed origins?`);
      this.view.setNotice(err instanceof WidgetApiError && err.status === 403 ? this.strings.notAllowed : this.strings.unavailable);
      return false;
    });
    return this.started;
  }

  private async begin(): Promise<boolean> {
    const grant = await this.client.start();
    this.applySettings(grant.widget);
    this.view.setNotice(null);
    const history = await this.client.history();
    this.showHistory(history.messages);
    this.onStatus(history.session?.status ?? grant.session?.status);
    if (this.identity) void this.sendIdentity();
    if (history.session) this.follow();
    return true;
  }

  private applySettings(w: Grant['widget']): void {
    this.host.looks({ color: w.color, position: w.position, language: w.language });
    this.strings = panelStrings(w.language);
    this.view.localize(this.strings);
    this.view.setHeader(w.title, w.avatarUrl);
    this.view.setGreeting(w.greeting);
  }

  private showHistory(messages: HistoryMessage[]): void {
    const firstQueued = messages.find((m) => m.direction === 'inbound' && m.status === 'queued');
    let reply = 0n;
    let inbound = 0n;
    for (const m of messages) {
      const seq = BigInt(m.seq);
      if (m.direction === 'outbound') {
        this.view.showMessage(`r:${m.id}`, 'agent', m.text);
        if (seq > reply) reply = seq;
        continue;
      }
      this.view.showMessage(`v:${m.clientId ?? m.id}`, 'visitor', m.text);
      if (m.status === 'queued') this.awaiting.set(m.id, m.clientId ?? m.id);
      // Answered messages form a prefix (they are answered in arrival order): resume after it.
      else if ((!firstQueued || seq < BigInt(firstQueued.seq)) && seq > inbound) inbound = seq;
    }
    this.cursor = `${reply}-${inbound}`;
    this.refreshTyping();
  }

  private async sendIdentity(): Promise<void> {
    const values = this.identity;
    if (!values) return;
    this.identity = undefined;
    try {
      // What the page passed, unchecked here: the API validates it, and a refusal is logged below.
      await this.client.identify(values as IdentifyBody);
    } catch (err) {
      console.warn(`Switchboard chat: identify() was refused (${(err as Error).message})`);
    }
  }

  /** Starts following the conversation's live events (once). */
  private follow(): void {
    if (this.following) return;
    const controller = new AbortController();
    this.following = controller;
    let offline: ReturnType<typeof setTimeout> | undefined;
    void this.client.follow(
      this.cursor,
      (e) => this.onEvent(e),
      (state) => {
        if (state === 'open') {
          clearTimeout(offline);
          this.view.setNotice(this.handedOff ? this.strings.handedOff : null);
          return;
        }
        // A preview cut in the middle cannot be completed from where it stopped: drop it, keep the dots.
        for (const turnId of this.previews.keys()) {
          this.broken.add(turnId);
          this.view.remove(`p:${turnId}`);
        }
        this.previews.clear();
        this.refreshTyping();
        offline ??= setTimeout(() => this.view.setNotice(this.strings.offline), 1500);
      },
      controller.signal,
    );
  }

  private onEvent(e: SseMessage): void {
    let data: unknown;
    try {
      data = JSON.parse(e.data);
    } catch {
      return;
    }
    if (e.event === 'delta') this.onDelta(data as { turnId?: string; delta: string });
    else if (e.event === 'committed') this.onCommitted(data as Committed);
    else if (e.event === 'session') this.onStatus((data as { status?: string }).status);
  }

  private onDelta({ turnId = '', delta }: { turnId?: string; delta: string }): void {
    if (this.broken.has(turnId) || typeof delta !== 'string') return;
    const text = (this.previews.get(turnId) ?? '') + delta;
    this.previews.set(turnId, text);
    this.view.showMessage(`p:${turnId}`, 'agent', text, 'streaming');
    this.refreshTyping();
  }

  private onCommitted(c: Committed): void {
    this.view.remove(`p:${c.turnId}`);
    this.previews.delete(c.turnId);
    this.broken.delete(c.turnId);
    for (const id of c.answered ?? []) this.awaiting.delete(id);
    for (const r of c.replies ?? []) {
      if (this.view.has(`r:${r.id}`)) continue; // never shown twice, whatever the network did
      this.view.showMessage(`r:${r.id}`, 'agent', r.text);
      this.host.emit('message', { id: r.id, from: 'agent', text: r.text });
      if (!this.host.isOpen()) this.host.unread(++this.unread);
    }
    if (c.status === 'deferred') this.view.setNotice(this.strings.deferred);
    else if (c.status === 'failed' && !c.replies?.length) this.view.setNotice(this.strings.failed);
    this.refreshTyping();
  }

  private onStatus(status: string | undefined): void {
    const handedOff = status === 'handed_off';
    if (handedOff !== this.handedOff || handedOff) this.view.setNotice(handedOff ? this.strings.handedOff : null);
    this.handedOff = handedOff;
    this.refreshTyping();
  }

  /** Dots while a reply is awaited and not streaming yet; never forever (QUIET_MS, then a notice). */
  private refreshTyping(): void {
    const waiting = this.awaiting.size > 0 && !this.handedOff;
    this.view.setTyping(waiting && this.previews.size === 0);
    clearTimeout(this.quiet);
    if (waiting) {
      this.quiet = setTimeout(() => {
        this.view.setTyping(false);
        this.view.setNotice(this.strings.waiting);
      }, QUIET_MS);
    }
  }
}

const mount: MountPanel = (host) => new ChatPanel(host);

(customElements.get('switchboard-chat') as unknown as { panelLoaded?: (m: MountPanel) => void } | undefined)?.panelLoaded?.(mount);
