-- migrate:up
-- Channels of different kinds: the raw API (keys), the web widget (visitor tokens) and the
-- platform adapters (Telegram, WhatsApp Cloud, Slack, Chatwoot). Each kind keeps its non-secret
-- settings in "settings" (allowed origins, API roots, ...) and its credentials sealed in
-- "secretsEncrypted" (libs/db secrets.ts, context SECRET_CONTEXTS.channelSecrets), never returned.
CREATE TYPE "ChannelKind" AS ENUM ('api', 'widget', 'telegram', 'whatsapp', 'slack', 'chatwoot');

ALTER TABLE "Channel" ADD COLUMN "kind" "ChannelKind" NOT NULL DEFAULT 'api';
ALTER TABLE "Channel" ADD COLUMN "settings" JSONB NOT NULL DEFAULT '{}';
ALTER TABLE "Channel" ADD COLUMN "secretsEncrypted" TEXT;

-- migrate:down
ALTER TABLE "Channel" DROP COLUMN "secretsEncrypted";
ALTER TABLE "Channel" DROP COLUMN "settings";
ALTER TABLE "Channel" DROP COLUMN "kind";
DROP TYPE "ChannelKind";
