import { Module } from '@nestjs/common';
import { HandOffModule } from '../../hand-off/hand-off.module';
import { HandoffToHumanTool } from './handoff-to-human.tool';

/** Built-in tools that act on the session in the database (they need the global DbModule). */
@Module({ imports: [HandOffModule], providers: [HandoffToHumanTool] })
export class SessionToolsModule {}
