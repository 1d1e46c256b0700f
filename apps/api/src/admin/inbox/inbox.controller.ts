import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import { ZodValidationPipe } from '../../common/validation/zod-validation.pipe';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { ALL_ROLES, Roles } from '../auth/roles.decorator';
import { adminTransaction } from '../common/admin-transaction';
import { OPERATORS } from '../common/ops-roles';
import { AddSessionNote, type NoteDto } from './add-note.usecase';
import { readConversation, type ConversationDto } from './conversation';
import { listInbox, type InboxItemDto } from './inbox-list';
import { noteBody, replyBody, type NoteBody, type ReplyBody } from './inbox.schemas';
import { MarkSessionRead } from './mark-read.usecase';
import { SendHumanReply, type HumanReplyDto } from './send-human-reply.usecase';
import { TakeOverSession, type TakeOverResult } from './take-over.usecase';
import { Answers } from '../../docs/answer.decorator';
import { conversationAnswer, humanReplyAnswer, inboxItem, markReadAnswer, noteRecord, takeOverAnswer } from './inbox.answers';
import { z } from 'zod';

/**
 * The inbox (docs/inbox.md): conversations handed to a person, read by everyone, acted on by
 * operators and up (the same roles that may hand a session back). Hand-back itself stays
 * POST /v1/admin/sessions/{id}/hand-back.
 */
@ApiTags('console admin')
@Controller('v1/admin/inbox')
@UseGuards(AdminAuthGuard)
export class InboxController {
  constructor(
    private readonly prisma: PrismaService,
    private readonly takeOverSession: TakeOverSession,
    private readonly sendHumanReply: SendHumanReply,
    private readonly addNote: AddSessionNote,
    private readonly markRead: MarkSessionRead,
  ) {}

  @Get()
  @Roles(...ALL_ROLES)
  @ApiOperation({ summary: 'Handed-off sessions, newest activity first, with unread counts (poll it: the console does every few seconds)' })
  @Answers({ status: 200, description: 'Handed-off conversations, newest activity first (at most 200).', schema: z.array(inboxItem) })
  list(@CurrentUser() user: AdminUser): Promise<InboxItemDto[]> {
    return adminTransaction(this.prisma, user, (tx) => listInbox(tx, user));
  }

  @Get(':id')
  @Roles(...ALL_ROLES)
  @ApiOperation({ summary: "A session's conversation: messages with each answering turn inline (model, failure), and internal notes" })
  @Answers({ status: 200, description: 'The newest messages in order, each customer message with its turn, and the notes.', schema: conversationAnswer })
  conversation(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<ConversationDto> {
    return adminTransaction(this.prisma, user, (tx) => readConversation(tx, user, id));
  }

  @Post(':id/take-over')
  @HttpCode(200)
  @Roles(...OPERATORS)
  @ApiOperation({ summary: 'Take the session over: the agent goes silent for it (409 session-taken-by-other when another operator has it)' })
  @ApiResponse({ status: 409, description: '`session-taken-by-other`: another operator has taken the session over.' })
  @Answers({ status: 200, description: 'The session, now held by the caller.', schema: takeOverAnswer })
  takeOver(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<TakeOverResult> {
    return this.takeOverSession.execute(user, id);
  }

  @Post(':id/replies')
  @Roles(...OPERATORS)
  @ApiOperation({ summary: "Reply to the customer through the session's channel (409 session-not-taken-over while the agent has it)" })
  @ApiResponse({ status: 409, description: '`session-not-taken-over` (the agent has the session: take it over first) or `session-taken-by-other`.' })
  @Answers({ status: 201, description: 'The reply, stored and sent (a repeated clientKey answers the first one).', schema: humanReplyAnswer })
  reply(@CurrentUser() user: AdminUser, @Param('id') id: string, @Body(new ZodValidationPipe(replyBody)) body: ReplyBody): Promise<HumanReplyDto> {
    return this.sendHumanReply.execute(user, id, body);
  }

  @Post(':id/notes')
  @Roles(...OPERATORS)
  @ApiOperation({ summary: 'Add an internal note (never sent to the customer)' })
  @Answers({ status: 201, description: 'The note (never shown to the customer).', schema: noteRecord })
  note(@CurrentUser() user: AdminUser, @Param('id') id: string, @Body(new ZodValidationPipe(noteBody)) body: NoteBody): Promise<NoteDto> {
    return this.addNote.execute(user, id, body);
  }

  @Post(':id/read')
  @HttpCode(200)
  @Roles(...OPERATORS)
  @ApiOperation({ summary: 'Mark the conversation read up to its newest customer message' })
  @Answers({ status: 200, description: 'Nothing unread any more.', schema: markReadAnswer })
  read(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<{ id: string; unread: 0 }> {
    return this.markRead.execute(user, id);
  }
}
