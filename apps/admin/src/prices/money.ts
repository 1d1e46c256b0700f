/** Micros (integer micro-units, as the API sends them: a number or a decimal string) as "$0.000150". */
export function formatMicros(micros: number | string | undefined | null, currency = 'USD'): string {
  const v = BigInt(typeof micros === 'string' ? micros || '0' : Math.round(micros ?? 0));
  const sign = v < 0n ? '-' : '';
  const abs = v < 0n ? -v : v;
  const whole = abs / 1_000_000n;
  const frac = (abs % 1_000_000n).toString().padStart(6, '0');
  const symbol = currency === 'USD' ? '$' : `${currency} `;
  return `${sign}${symbol}${whole.toLocaleString('en-US')}.${frac}`;
}
