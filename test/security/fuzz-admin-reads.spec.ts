import { fuzzSuite } from './support/fuzz-suite';

// Every GET route under /v1/admin, as the app declares them.
fuzzSuite('fuzz-admin-reads', 'hostile input on every admin read route', (t) => t.route.method === 'GET' && t.route.path.startsWith('/v1/admin'), 30);
