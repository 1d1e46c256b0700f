// One jest setup for every project in the repo. `unit` tests need nothing running;
// `integration` tests get a fresh database (created by globalSetup, dropped by globalTeardown)
// and talk to the real Postgres and Redis.
const fs = require('node:fs');
const path = require('node:path');

const swc = JSON.parse(fs.readFileSync(path.join(__dirname, '.swcrc'), 'utf8'));
const transform = { '^.+\\.(t|j)sx?$': ['@swc/jest', { ...swc, swcrc: false }] };
const moduleNameMapper = {
  // Generated Prisma code imports './x.js' for files that are './x.ts' in the tree.
  '^(\\.{1,2}/.*)\\.js$': '$1',
  '^@falai/agent$': '<rootDir>/libs/agent/src/index.ts',
  '^@switchboard/db$': '<rootDir>/libs/db/src/index.ts',
  '^@switchboard/queue$': '<rootDir>/libs/queue/src/index.ts',
  '^@switchboard/config$': '<rootDir>/libs/config/src/index.ts',
  '^@switchboard/agent-config$': '<rootDir>/libs/agent-config/src/index.ts',
  '^@switchboard/webhooks$': '<rootDir>/libs/webhooks/src/index.ts',
  '^@switchboard/outbound$': '<rootDir>/libs/outbound/src/index.ts',
  '^@switchboard/client$': '<rootDir>/libs/client/src/index.ts',
};
const common = {
  rootDir: __dirname,
  transform,
  moduleNameMapper,
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '<rootDir>/apps/admin/'],
  // @fastify/static requires content-disposition 3, which ships only ESM; swc turns it into
  // CommonJS so tests can build the whole app in-process (test/security).
  transformIgnorePatterns: ['/node_modules/(?!content-disposition/)'],
};

module.exports = {
  maxWorkers: 2,
  // The slowest suites first on a fresh clone, where jest has no times (test/support/slow-first-sequencer.js).
  testSequencer: '<rootDir>/test/support/slow-first-sequencer.js',
  // Jest reads testTimeout from the root config only; integration hooks boot real processes.
  testTimeout: 60000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts', '<rootDir>/test/unit/**/*.spec.ts'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.spec.ts', '<rootDir>/test/db/**/*.spec.ts', '<rootDir>/test/browser/**/*.spec.ts', '<rootDir>/test/security/**/*.spec.ts', '<rootDir>/test/chaos/**/*.spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      // Every answer of the API is checked against its OpenAPI document (docs/api-contract.md).
      setupFilesAfterEnv: ['<rootDir>/test/support/answer-validation.ts'],
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
