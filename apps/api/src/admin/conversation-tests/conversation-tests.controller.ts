import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import { ZodValidationPipe } from '../../common/validation/zod-validation.pipe';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { CONFIG_WRITERS, READERS } from '../common/admin-roles';
import {
  ConversationTests,
  createTestBody,
  runTestBody,
  updateTestBody,
  type CreateTestBody,
  type RunTestBody,
  type UpdateTestBody,
} from './conversation-tests.service';
import { Answers } from '../../docs/answer.decorator';
import { conversationTestRecord, testRunAnswer, type ConversationTestRecord } from './conversation-test.answers';
import { z } from 'zod';

/** An agent's conversation tests (docs/conversation-tests.md): publishing runs them all. */
@ApiTags('console admin')
@Controller('v1/admin/agents/:id/tests')
@UseGuards(AdminAuthGuard)
export class ConversationTestsController {
  constructor(private readonly tests: ConversationTests) {}

  @Get()
  @Roles(...READERS)
  @ApiOperation({ summary: "The agent's conversation tests, oldest first, each with its last run" })
  @Answers({ status: 200, description: 'The tests, oldest first.', schema: z.array(conversationTestRecord) })
  list(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<ConversationTestRecord[]> {
    return this.tests.list(user, id);
  }

  @Post()
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({
    summary:
      'Save a conversation as a test: { name, from: { playgroundId } | { sessionId }, expect: [[...per message]], mode: "replay" | "live" }. A transcript is recorded by running its messages once on the version the session ran.',
  })
  @Answers({ status: 201, description: 'The saved test.', schema: conversationTestRecord })
  create(@CurrentUser() user: AdminUser, @Param('id') id: string, @Body(new ZodValidationPipe(createTestBody)) body: CreateTestBody): Promise<ConversationTestRecord> {
    return this.tests.create(user, id, body);
  }

  @Post('run')
  @ApiResponse({ status: 422, description: '`flow-configuration`: the version\'s flows do not load (details name the JSON path).' })
  @ApiResponse({ status: 429, description: "`quota-exceeded`: the tenant's monthly quota is used up." })
  @ApiResponse({ status: 502, description: '`agent-run-failed`: the worker could not run the tests.' })
  @ApiResponse({ status: 504, description: '`agent-run-timeout`: no worker answered in time.' })
  @HttpCode(200)
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({ summary: 'Run every test of the agent against { target: "draft" | "unsaved" | <version>, config? }' })
  @Answers({ status: 200, description: 'Whether every test passed, and each result.', schema: testRunAnswer })
  runAll(@CurrentUser() user: AdminUser, @Param('id') id: string, @Body(new ZodValidationPipe(runTestBody)) body: RunTestBody): Promise<z.infer<typeof testRunAnswer>> {
    return this.tests.run(user, id, body);
  }

  @Get(':testId')
  @Roles(...READERS)
  @ApiOperation({ summary: 'One conversation test' })
  @Answers({ status: 200, description: 'The test.', schema: conversationTestRecord })
  get(@CurrentUser() user: AdminUser, @Param('id') id: string, @Param('testId') testId: string): Promise<ConversationTestRecord> {
    return this.tests.get(user, id, testId);
  }

  @Put(':testId')
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({ summary: "Edit a test's name, mode or per-message expectations (the messages and the recording stay)" })
  @Answers({ status: 200, description: 'The edited test.', schema: conversationTestRecord })
  update(
    @CurrentUser() user: AdminUser,
    @Param('id') id: string,
    @Param('testId') testId: string,
    @Body(new ZodValidationPipe(updateTestBody)) body: UpdateTestBody,
  ): Promise<ConversationTestRecord> {
    return this.tests.update(user, id, testId, body);
  }

  @Delete(':testId')
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({ summary: 'Delete a conversation test' })
  @Answers({ status: 200, description: 'The deleted test.', schema: conversationTestRecord })
  remove(@CurrentUser() user: AdminUser, @Param('id') id: string, @Param('testId') testId: string): Promise<ConversationTestRecord> {
    return this.tests.remove(user, id, testId);
  }

  @Post(':testId/run')
  @ApiResponse({ status: 422, description: '`flow-configuration`: the version\'s flows do not load (details name the JSON path).' })
  @ApiResponse({ status: 429, description: "`quota-exceeded`: the tenant's monthly quota is used up." })
  @ApiResponse({ status: 502, description: '`agent-run-failed`: the worker could not run the test.' })
  @ApiResponse({ status: 504, description: '`agent-run-timeout`: no worker answered in time.' })
  @HttpCode(200)
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({ summary: 'Run one test against { target: "draft" | "unsaved" | <version>, config? }' })
  @Answers({ status: 200, description: 'Whether the test passed, and its result.', schema: testRunAnswer })
  runOne(
    @CurrentUser() user: AdminUser,
    @Param('id') id: string,
    @Param('testId') testId: string,
    @Body(new ZodValidationPipe(runTestBody)) body: RunTestBody,
  ): Promise<z.infer<typeof testRunAnswer>> {
    return this.tests.run(user, id, body, testId);
  }
}
