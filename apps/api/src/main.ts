import { loadEnv } from '@switchboard/config';
import { createApp } from './create-app';

export { createApp } from './create-app';

async function bootstrap(): Promise<void> {
  let env;
  try {
    env = loadEnv();
  } catch (err) {
    // Fail fast with the variable's name, before anything else starts.
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  }
  const app = await createApp(env);
  await app.listen({ port: env.PORT, host: env.HOST });
}

if (require.main === module) {
  bootstrap().catch((err: unknown) => {
    process.stderr.write(`API failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
