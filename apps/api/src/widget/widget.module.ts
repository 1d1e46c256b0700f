import { Module } from '@nestjs/common';
import { MessagesModule } from '../messages/messages.module';
import { StreamsModule } from '../streams/streams.module';
import { IdentifyVisitor } from './identify-visitor.usecase';
import { ListVisitorMessages } from './list-visitor-messages.usecase';
import { PostVisitorMessage } from './post-visitor-message.usecase';
import { StartVisitorSession } from './start-visitor-session.usecase';
import { VisitorGuard } from './visitor.guard';
import { VisitorTokens } from './visitor-token.service';
import { WidgetAssets } from './widget-assets';
import { WidgetChannels } from './widget-channels';
import { WidgetController } from './widget.controller';
import { WidgetRateLimits } from './widget-rate-limits';

/**
 * The web widget: its public API under /v1/widget/:publicId (visitor tokens, the visitor's own
 * conversation) and its built files at /widget.js and /widget/ (WidgetAssets). WidgetChannels is
 * exported for CORS (create-app) and for the console's channel edits, which forget cached entries.
 */
@Module({
  imports: [MessagesModule, StreamsModule],
  controllers: [WidgetController],
  providers: [WidgetChannels, VisitorTokens, VisitorGuard, WidgetRateLimits, StartVisitorSession, ListVisitorMessages, PostVisitorMessage, IdentifyVisitor, WidgetAssets],
  exports: [WidgetChannels],
})
export class WidgetModule {}
