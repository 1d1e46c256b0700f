// A provider that cannot be built from its configuration: an unknown provider name, a missing
// model, key or base URL, bad scripted rules. Thrown by the constructors and by createProvider,
// before any call.

export type ProviderConfigurationCode =
  | 'provider-unknown'
  | 'provider-model-missing'
  | 'provider-key-missing'
  | 'provider-base-url-missing'
  | 'provider-option-invalid'
  | 'provider-script-invalid';

export class ProviderConfigurationError extends Error {
  readonly code: ProviderConfigurationCode;

  constructor(code: ProviderConfigurationCode, message: string, cause?: unknown) {
    super(`[ProviderConfigurationError] ${message}`, cause === undefined ? undefined : { cause });
    this.name = 'ProviderConfigurationError';
    this.code = code;
  }
}
