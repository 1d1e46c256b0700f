import pino from 'pino';

/**
 * Where both apps write their JSON logs: stdout, synchronously, as Node itself writes to a piped
 * stdout. pino's default destination writes each line later and flushes what is still pending
 * only on the process's `exit` event, which a SIGTERM never reaches: Nest's shutdown hooks close
 * the app and then raise the signal again, which ends the process at once. The shutdown's last
 * lines ("turn worker closed", "worker stopping…") were lost whenever stdout drained slowly.
 */
export function logDestination(): pino.DestinationStream {
  return pino.destination({ dest: 1, sync: true });
}
