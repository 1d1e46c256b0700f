import { Module } from '@nestjs/common';
import { ChannelAuthModule } from '../channel-auth/channel-auth.module';
import { EventsModule } from '../events/events.module';
import { SessionStartController } from './session-start.controller';
import { StartFlow } from './start-flow.usecase';

/** `POST /v1/sessions/:sessionId/start`. */
@Module({
  imports: [ChannelAuthModule, EventsModule],
  controllers: [SessionStartController],
  providers: [StartFlow],
})
export class SessionStartModule {}
