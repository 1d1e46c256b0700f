import { Module, type DynamicModule } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { AdminModule } from './admin/admin.module';
import { ConsoleModule } from './console/console.module';
import { CoreModule } from './core.module';
import { HealthModule } from './health/health.module';
import { GracefulShutdown } from './lifecycle/graceful-shutdown';
import { MessagesModule } from './messages/messages.module';
import { EventsModule } from './events/events.module';
import { SessionStartModule } from './session-start/session-start.module';
import { StreamsModule } from './streams/streams.module';
import { WidgetModule } from './widget/widget.module';
import { ChannelAdaptersModule } from './channel-adapters/channel-adapters.module';

/** The API: infrastructure first, then one module per feature. Add feature modules to the list. */
@Module({})
export class AppModule {
  static forRoot(env: Env): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(env),
        HealthModule,
        MessagesModule,
        EventsModule,
        SessionStartModule,
        StreamsModule,
        WidgetModule,
        ChannelAdaptersModule,
        AdminModule,
        ConsoleModule,
      ],
      providers: [GracefulShutdown],
    };
  }
}
