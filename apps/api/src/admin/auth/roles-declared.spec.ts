import 'reflect-metadata';
import { MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { AdminModule } from '../admin.module';
import { PUBLIC_KEY, ROLES_KEY } from './roles.decorator';

// The guard refuses routes without @Roles; this catches the omission before anyone hits it.
describe('admin routes', () => {
  const controllers = Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, AdminModule) as (new (...args: never[]) => object)[];

  it('are served by at least the auth, sessions and messages controllers', () => {
    expect(controllers.map((c) => c.name)).toEqual(expect.arrayContaining(['AuthController', 'SessionsController', 'MessagesController']));
  });

  it.each(controllers.map((c) => [c.name, c] as const))('of %s each declare roles or are public', (_, controller) => {
    const handlers = Object.getOwnPropertyNames(controller.prototype)
      .filter((name) => name !== 'constructor')
      .map((name) => (controller.prototype as Record<string, unknown>)[name])
      .filter((fn): fn is (...args: unknown[]) => unknown => typeof fn === 'function' && Reflect.hasMetadata(PATH_METADATA, fn));
    expect(handlers.length).toBeGreaterThan(0);
    for (const handler of handlers) {
      const roles = Reflect.getMetadata(ROLES_KEY, handler) ?? Reflect.getMetadata(ROLES_KEY, controller);
      const isPublic = Reflect.getMetadata(PUBLIC_KEY, handler) === true;
      expect({ handler: handler.name, declared: isPublic || (Array.isArray(roles) && roles.length > 0) }).toEqual({ handler: handler.name, declared: true });
    }
  });
});
