import { Module } from '@nestjs/common';
import { HandOffSession } from './hand-off-session';

/** Handing a session to a person, shared by the `handoff_to_human` tool and action (needs the global DbModule). */
@Module({ providers: [HandOffSession], exports: [HandOffSession] })
export class HandOffModule {}
