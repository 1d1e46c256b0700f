/** A history item or event that cannot be converted; `index` is its position in the input. */
export class HistoryFormatError extends Error {
  readonly code = 'invalid-history';
  readonly index: number | undefined;

  constructor(list: 'history' | 'events', index: number | undefined, what: string) {
    super(`[HistoryFormatError] ${index === undefined ? list : `${list}[${index}]`}: ${what}.`);
    this.name = 'HistoryFormatError';
    this.index = index;
  }
}
