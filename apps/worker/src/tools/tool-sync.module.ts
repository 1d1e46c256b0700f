import { Module } from '@nestjs/common';
import { SyncRegisteredTools } from './sync-registered-tools';
import { ToolsModule } from './tools.module';

/** The start-up sync of code tools to the database (kept apart so ToolsModule needs no database). */
@Module({ imports: [ToolsModule], providers: [SyncRegisteredTools] })
export class ToolSyncModule {}
