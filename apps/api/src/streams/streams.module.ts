import { Module } from '@nestjs/common';
import { ChannelAuthModule } from '../channel-auth/channel-auth.module';
import { OpenSessionStream } from './open-session-stream.usecase';
import { SessionStreamController } from './session-stream.controller';

/** `GET /v1/sessions/:id/stream`: a session's live replies over Server-Sent Events. */
@Module({
  imports: [ChannelAuthModule],
  controllers: [SessionStreamController],
  providers: [OpenSessionStream],
  exports: [OpenSessionStream],
})
export class StreamsModule {}
