export * from './generated/prisma/client';
export * from './create-prisma-client';
export * from './prisma.service';
export * from './db.module';
export * from './api-keys';
export * from './secrets';
export * from './tenant-scope';
export * from './usage';
