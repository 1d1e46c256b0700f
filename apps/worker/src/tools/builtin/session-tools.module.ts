import { Module } from '@nestjs/common';
import { HandoffToHumanTool } from './handoff-to-human.tool';

/** Built-in tools that act on the session in the database (they need the global DbModule). */
@Module({ providers: [HandoffToHumanTool] })
export class SessionToolsModule {}
