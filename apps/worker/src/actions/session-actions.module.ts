import { Module } from '@nestjs/common';
import { HandoffAction } from './builtin/handoff.action';
import { SyncRegisteredActions } from './sync-registered-actions';
import { ActionsModule } from './actions.module';
import { HandOffModule } from '../hand-off/hand-off.module';

/** Actions that need the database (the global DbModule), and the start-up sync of all of them. */
@Module({ imports: [ActionsModule, HandOffModule], providers: [HandoffAction, SyncRegisteredActions] })
export class SessionActionsModule {}
