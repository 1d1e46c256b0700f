import type { PanelStrings } from './strings';
import { renderMarkdown } from './render';

const SEND_ICON = '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M3 20l18-8L3 4v6l12 2-12 2z"/></svg>';

/** The panel's DOM and nothing else: what to show is decided by the panel controller. */
export class PanelView {
  readonly panel = el('div', 'panel');
  readonly input = document.createElement('textarea');
  readonly form = document.createElement('form');
  private readonly title = el('h2');
  private readonly avatar = document.createElement('img');
  private readonly closeButton = el('button', 'close');
  private readonly log = el('div', 'log');
  private readonly typing = el('div', 'typing');
  private readonly notice = el('p', 'notice');
  private readonly sendButton = el('button', 'send');
  private readonly inputLabel = el('label', 'sr');
  private readonly messages = new Map<string, HTMLElement>();
  private greetingEl?: HTMLElement;

  constructor(private strings: PanelStrings) {
    const header = document.createElement('header');
    this.title.id = 'sb-title';
    this.avatar.alt = '';
    this.avatar.hidden = true;
    this.closeButton.type = 'button';
    this.closeButton.textContent = '×';
    header.append(this.avatar, this.title, this.closeButton);

    this.panel.setAttribute('role', 'dialog');
    this.panel.setAttribute('aria-labelledby', 'sb-title');
    this.log.setAttribute('role', 'log');
    this.log.setAttribute('aria-live', 'polite');
    this.log.tabIndex = 0;
    for (let i = 0; i < 3; i++) this.typing.append(el('span'));
    this.typing.setAttribute('role', 'status');
    this.typing.hidden = true;
    this.notice.setAttribute('role', 'status');
    this.notice.hidden = true;

    this.input.id = 'sb-input';
    this.input.rows = 1;
    this.input.maxLength = 4000;
    this.inputLabel.htmlFor = 'sb-input';
    this.sendButton.type = 'submit';
    this.sendButton.innerHTML = SEND_ICON; // our own constant markup, never data
    this.form.append(this.inputLabel, this.input, this.sendButton);
    this.panel.append(header, this.log, this.notice, this.form);
    this.log.append(this.typing);
    this.localize(strings);
  }

  localize(strings: PanelStrings): void {
    this.strings = strings;
    this.closeButton.setAttribute('aria-label', strings.close);
    this.log.setAttribute('aria-label', strings.log);
    this.typing.setAttribute('aria-label', strings.typing);
    this.inputLabel.textContent = strings.input;
    this.input.placeholder = strings.placeholder;
    this.sendButton.setAttribute('aria-label', strings.send);
  }

  onClose(fn: () => void): void {
    this.closeButton.addEventListener('click', fn);
  }

  setHeader(title: string, avatarUrl: string | null): void {
    this.title.textContent = title;
    this.avatar.hidden = !avatarUrl;
    if (avatarUrl) this.avatar.src = avatarUrl;
    else this.avatar.removeAttribute('src');
  }

  setGreeting(text: string): void {
    this.greetingEl?.remove();
    this.greetingEl = undefined;
    if (!text) return;
    this.greetingEl = this.bubble('agent', text);
    this.log.prepend(this.greetingEl);
  }

  has(key: string): boolean {
    return this.messages.has(key);
  }

  /** Adds (or replaces the text of) the message under `key`, in order before the typing dots. */
  showMessage(key: string, from: 'agent' | 'visitor', text: string, state: 'done' | 'pending' | 'streaming' = 'done'): HTMLElement {
    let node = this.messages.get(key);
    if (node) {
      node.replaceChildren(renderMarkdown(text));
      node.className = `msg ${from}`;
    } else {
      node = this.bubble(from, text);
      this.messages.set(key, node);
      this.log.insertBefore(node, this.typing);
    }
    node.classList.toggle('pending', state === 'pending');
    node.classList.toggle('streaming', state === 'streaming');
    if (state === 'streaming') node.setAttribute('aria-busy', 'true');
    else node.removeAttribute('aria-busy');
    this.scroll();
    return node;
  }

  /** Moves a message to another key (the visitor's message, once the server named it). */
  rekey(from: string, to: string): void {
    const node = this.messages.get(from);
    if (!node || from === to) return;
    this.messages.delete(from);
    this.messages.set(to, node);
  }

  remove(key: string): void {
    this.messages.get(key)?.remove();
    this.messages.delete(key);
  }

  /** A "Not sent. Retry" line under a visitor's message. */
  markNotSent(key: string, retry: () => void): void {
    const node = this.messages.get(key);
    if (!node) return;
    const line = el('div', 'failed-send');
    line.textContent = `${this.strings.notSent} `;
    const button = el('button', 'retry');
    button.type = 'button';
    button.textContent = this.strings.retry;
    button.addEventListener('click', () => {
      line.remove();
      retry();
    });
    line.append(button);
    node.after(line);
  }

  setTyping(on: boolean): void {
    this.typing.hidden = !on;
    if (on) this.scroll();
  }

  setNotice(text: string | null): void {
    this.notice.hidden = !text;
    this.notice.textContent = text ?? '';
  }

  setEnabled(on: boolean): void {
    this.input.disabled = !on;
    this.sendButton.disabled = !on;
  }

  private bubble(from: 'agent' | 'visitor', text: string): HTMLElement {
    const node = el('div', `msg ${from}`);
    node.append(renderMarkdown(text));
    return node;
  }

  private scroll(): void {
    this.log.scrollTop = this.log.scrollHeight;
  }
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  return node;
}
