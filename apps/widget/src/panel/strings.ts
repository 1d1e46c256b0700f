import { byLocale, pickLocale } from '../i18n';
import type en from '../locales/en.json';

export type PanelStrings = (typeof en)['panel'];

const PANEL_STRINGS = byLocale(import.meta.glob<PanelStrings>('../locales/*.json', { eager: true, import: 'panel' }));

/** The panel's texts in `language` ('auto': the visitor's browser), English for missing keys. */
export function panelStrings(language: string | undefined): PanelStrings {
  const picked = PANEL_STRINGS[pickLocale(Object.keys(PANEL_STRINGS), language, navigator.languages)];
  return { ...PANEL_STRINGS.en, ...picked };
}
