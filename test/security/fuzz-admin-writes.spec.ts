import { fuzzSuite } from './support/fuzz-suite';

// Every POST/PUT/DELETE route under /v1/admin (login included), as the app declares them.
fuzzSuite('fuzz-admin-writes', 'hostile input on every admin write route', (t) => t.route.method !== 'GET' && t.route.path.startsWith('/v1/admin'), 20);
