export * from './call-cost';
export * from './price-at';
export * from './model-prices';
