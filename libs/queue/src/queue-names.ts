// Queue names carry a Redis Cluster hash tag ({...}) so all keys of one queue land in one slot.
export const QUEUES = {
  /** One job per inbound message (or wake): run the session's pending turns. */
  turns: '{turns}',
  /** A console "test call" of an HTTP tool: the worker (which holds the secret headers) makes it. */
  httpToolTests: '{http-tool-tests}',
  /** A console "test delivery" to a channel's webhook: the worker (which signs deliveries) sends it. */
  webhookTests: '{webhook-tests}',
  /** A channel adapter's set-up at the platform (Telegram's setWebhook / deleteWebhook): the worker holds the outbound guard. */
  channelSetup: '{channel-setup}',
  /** A console run of an agent: a playground turn or a conversation test (no channel, no Session). */
  agentRuns: '{agent-runs}',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
