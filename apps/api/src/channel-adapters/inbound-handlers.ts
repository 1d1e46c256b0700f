import type { AdapterKind } from '@switchboard/webhooks';
import type { InboundHandler } from './inbound-handler';
import { mapTelegramUpdate, verifyTelegram } from './telegram/telegram-inbound';
import { mapWhatsAppNotification, verifyWhatsApp } from './whatsapp/whatsapp-inbound';
import { mapChatwootEvent, verifyChatwoot } from './chatwoot/chatwoot-inbound';
import { mapSlackRequest, verifySlack } from './slack/slack-inbound';

/** Every adapter kind's inbound side; the type makes a kind without one a compile error. */
export const inboundHandlers: { [K in AdapterKind]: InboundHandler<K> } = {
  telegram: {
    kind: 'telegram',
    verify: (req, channel) => verifyTelegram(req.headers, channel.secrets) || 'The X-Telegram-Bot-Api-Secret-Token header is missing or wrong.',
    map: (body) => mapTelegramUpdate(body),
  },
  whatsapp: {
    kind: 'whatsapp',
    verify: (req, channel) =>
      verifyWhatsApp(req.headers, req.rawBody, channel.secrets.appSecret) || 'The X-Hub-Signature-256 header is missing or is not the HMAC-SHA256 of the body under the app secret.',
    map: (body, channel) => mapWhatsAppNotification(body, channel.settings.phoneNumberId),
  },
  slack: {
    kind: 'slack',
    verify: (req, channel) => verifySlack(req.headers, req.rawBody, channel.secrets.signingSecret, req.now),
    map: (body) => mapSlackRequest(body),
  },
  chatwoot: {
    kind: 'chatwoot',
    verify: (req, channel) => verifyChatwoot(req.query, channel.secrets.urlSecret) || 'The secret in the webhook URL is missing or wrong.',
    map: (body, channel) => mapChatwootEvent(body, channel.settings.accountId),
  },
};
