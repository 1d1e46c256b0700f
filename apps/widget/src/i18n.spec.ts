import { byLocale, fill, pickLocale } from './i18n';

describe('pickLocale', () => {
  const available = ['en', 'pt-BR'];
  it('takes the channel’s language, then the browser’s, then English', () => {
    expect(pickLocale(available, 'pt-BR', ['en-US'])).toBe('pt-BR');
    expect(pickLocale(available, 'auto', ['pt-PT', 'en'])).toBe('pt-BR');
    expect(pickLocale(available, 'de', ['fr'])).toBe('en');
    expect(pickLocale(available, undefined, ['en-GB'])).toBe('en');
  });

  it('names locale files by their file name and fills placeholders', () => {
    expect(Object.keys(byLocale({ './locales/en.json': 1, './locales/pt-BR.json': 2 }))).toEqual(['en', 'pt-BR']);
    expect(fill('{n} unread', { n: 3 })).toBe('3 unread');
  });
});
