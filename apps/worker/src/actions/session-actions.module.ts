import { Module } from '@nestjs/common';
import { HandoffAction } from './builtin/handoff.action';
import { SyncRegisteredActions } from './sync-registered-actions';
import { ActionsModule } from './actions.module';

/** Actions that need the database (the global DbModule), and the start-up sync of all of them. */
@Module({ imports: [ActionsModule], providers: [HandoffAction, SyncRegisteredActions] })
export class SessionActionsModule {}
