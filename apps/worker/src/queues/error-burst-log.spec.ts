import { ErrorBurstLog, type ErrorBurstEntry } from './error-burst-log';

describe('ErrorBurstLog', () => {
  let lines: ErrorBurstEntry[];
  let log: ErrorBurstLog;

  beforeEach(() => {
    jest.useFakeTimers();
    lines = [];
    log = new ErrorBurstLog((entry) => lines.push(entry), 1_000);
  });

  afterEach(() => jest.useRealTimers());

  it('writes the first error of a storm at once and one count of the rest when the window ends', () => {
    for (let i = 0; i < 1_300; i++) log.report('read ECONNRESET');
    expect(lines).toEqual([{ error: 'read ECONNRESET' }]);

    jest.advanceTimersByTime(1_000);
    expect(lines).toEqual([{ error: 'read ECONNRESET' }, { error: 'read ECONNRESET', repeated: 1_299, windowMs: 1_000 }]);
  });

  it('counts errors that differ only in their numbers as one kind, and keeps the first as it came', () => {
    log.report('connect ECONNRESET 127.0.0.1:38741');
    log.report('connect ECONNRESET 127.0.0.1:39727');
    jest.advanceTimersByTime(1_000);

    expect(lines).toEqual([
      { error: 'connect ECONNRESET 127.0.0.1:38741' },
      { error: 'connect ECONNRESET 127.0.0.1:38741', repeated: 1, windowMs: 1_000 },
    ]);
  });

  it('writes each kind of error, and writes nothing more for an error that came once', () => {
    log.report('read ECONNRESET');
    log.report('sorry, too many clients already');
    jest.advanceTimersByTime(1_000);

    expect(lines).toEqual([{ error: 'read ECONNRESET' }, { error: 'sorry, too many clients already' }]);
  });

  it('writes an error at once again after its window', () => {
    log.report('read ECONNRESET');
    jest.advanceTimersByTime(1_000);
    log.report('read ECONNRESET');

    expect(lines).toEqual([{ error: 'read ECONNRESET' }, { error: 'read ECONNRESET' }]);
  });

  it('writes the open window’s count when flushed (a stopping worker), once, and its timer writes nothing more', () => {
    log.report('read ECONNRESET');
    log.report('read ECONNRESET');
    log.report('read ECONNRESET');
    log.flush();
    jest.advanceTimersByTime(1_000);

    expect(lines).toEqual([{ error: 'read ECONNRESET' }, { error: 'read ECONNRESET', repeated: 2, windowMs: 1_000 }]);
    expect(jest.getTimerCount()).toBe(0);
  });
});
