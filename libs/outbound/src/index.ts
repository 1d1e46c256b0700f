export * from './address-guard';
export * from './guarded-fetch';
export * from './url-credentials';
