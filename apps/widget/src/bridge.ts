// What the loader (widget.js) and the panel bundle it loads on first open share. They are two
// separate scripts; the panel finds the loader through the custom element registry
// (customElements.get('switchboard-chat').panelLoaded(mount)), so neither adds page globals
// beyond window.Switchboard.

/** The looks a page can know before any request (from the snippet) and the server confirms. */
export interface Looks {
  color?: string;
  position?: 'left' | 'right';
  language?: string;
}

/** A preview (the console's): the panel shows these settings and a sample conversation, offline. */
export interface PreviewSettings extends Looks {
  title: string;
  greeting: string;
  avatarUrl: string | null;
}

export interface WidgetOptions extends Looks {
  /** The API's base URL, ending in '/' (where widget.js came from). */
  apiBase: string;
  /** The channel's public id (data-widget). */
  widgetId: string;
  preview?: PreviewSettings;
}

export type VisitorEvent = 'message' | 'open' | 'close';

/** A message as `on('message', fn)` hands it to the page. */
export interface WidgetMessage {
  id: string;
  from: 'visitor' | 'agent';
  text: string;
}

/** What the loader gives the panel. */
export interface PanelHost {
  options: WidgetOptions;
  /** Where the panel draws itself (inside the element's shadow root). */
  root: HTMLElement;
  shadow: ShadowRoot;
  /** The panel asks to close (its close button, Esc). */
  close(): void;
  /** Replies that arrived while closed, for the launcher's badge. */
  unread(count: number): void;
  /** Settings the server sent: the launcher follows them. */
  looks(looks: Looks): void;
  emit(event: 'message', message: WidgetMessage): void;
  /** Whether the panel is open now. */
  isOpen(): boolean;
}

export interface Panel {
  opened(): void;
  send(text: string): void;
  identify(values: Record<string, unknown>): void;
  preview(settings: PreviewSettings): void;
}

export type MountPanel = (host: PanelHost) => Panel;
