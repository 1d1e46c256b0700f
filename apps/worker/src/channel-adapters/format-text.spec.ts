import { toSlackMrkdwn, toTelegramHtml, toWhatsAppText } from './format-text';

describe('reply formatting per platform', () => {
  it('turns markdown into Telegram HTML and escapes what is not formatting', () => {
    expect(toTelegramHtml('**Reserva** para _2 < 3_ pessoas & `cód<1>`')).toBe('<b>Reserva</b> para <i>2 &lt; 3</i> pessoas &amp; <code>cód&lt;1&gt;</code>');
    expect(toTelegramHtml('Veja [o site](https://ex.com/a?b=1&c="2")')).toBe('Veja <a href="https://ex.com/a?b=1&amp;c=&quot;2&quot;">o site</a>');
    expect(toTelegramHtml('```js\nif (a < b) {}\n```')).toBe('<pre>if (a &lt; b) {}\n</pre>');
    expect(toTelegramHtml('~~velho~~ novo')).toBe('<s>velho</s> novo');
  });

  it('leaves snake_case words alone', () => {
    expect(toTelegramHtml('use room_type_id')).toBe('use room_type_id');
  });

  it('turns markdown into Slack mrkdwn and escapes & < >', () => {
    expect(toSlackMrkdwn('**Reserva** _ok_ ~~x~~ a < b & [site](https://ex.com/?a=1)')).toBe('*Reserva* _ok_ ~x~ a &lt; b &amp; <https://ex.com/?a=1|site>');
  });

  it('turns markdown into WhatsApp formatting', () => {
    expect(toWhatsAppText('**Reserva** *confirmada* ~~ontem~~ [site](https://ex.com)')).toBe('*Reserva* _confirmada_ ~ontem~ site (https://ex.com)');
  });
});
