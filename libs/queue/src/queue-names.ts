// Queue names carry a Redis Cluster hash tag ({...}) so all keys of one queue land in one slot.
export const QUEUES = {
  /** One job per inbound message (or wake): run the session's pending turns. */
  turns: '{turns}',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
