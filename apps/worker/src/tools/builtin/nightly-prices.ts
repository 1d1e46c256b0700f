import { Injectable } from '@nestjs/common';

// The Concierge demo's price list: nightly rate in BRL by city. Lookups ignore case, accents and
// surrounding spaces; a city not listed gets the default rate.

const PRICES: Record<string, number> = {
  curitiba: 420,
  'sao paulo': 560,
  'rio de janeiro': 610,
  florianopolis: 480,
  'belo horizonte': 390,
  salvador: 450,
};

export const DEFAULT_NIGHTLY_PRICE = 350;

export function normalizeCity(city: string): string {
  return city
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

@Injectable()
export class NightlyPrices {
  /** The nightly price in a city, and whether it came from the list or the default. */
  lookup(city: string): { price: number; listed: boolean } {
    const price = PRICES[normalizeCity(city)];
    return price === undefined ? { price: DEFAULT_NIGHTLY_PRICE, listed: false } : { price, listed: true };
  }
}
