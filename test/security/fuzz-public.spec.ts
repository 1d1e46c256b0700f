import { fuzzSuite } from './support/fuzz-suite';

// The channel API (messages, session history, session stream), the widget and health (metrics have their own port).
fuzzSuite('fuzz-public', 'hostile input on every public route', (t) => !t.route.path.startsWith('/v1/admin'), 5);
