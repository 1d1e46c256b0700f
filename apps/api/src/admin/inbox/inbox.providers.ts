import { AddSessionNote } from './add-note.usecase';
import { MarkSessionRead } from './mark-read.usecase';
import { SendHumanReply } from './send-human-reply.usecase';
import { InboxSessionEvents } from './session-event-publisher';
import { TakeOverSession } from './take-over.usecase';

export { InboxController } from './inbox.controller';

/** The inbox's use cases, registered in AdminModule beside its controller. */
export const INBOX_PROVIDERS = [TakeOverSession, SendHumanReply, AddSessionNote, MarkSessionRead, InboxSessionEvents];
