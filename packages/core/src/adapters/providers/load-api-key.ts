import { ModelCallError } from '../../kernel/errors/model-call-error.js';

/**
 * The API key: the one passed in, else the environment variable (read here, at the edge, at the
 * first call). A missing key is a non-retryable `authentication` error that names both ways to
 * give it.
 */
export function loadApiKey(options: {
  apiKey: string | undefined;
  environmentVariable: string;
  providerName: string;
  factory: string;
}): string {
  const { apiKey, environmentVariable, providerName, factory } = options;
  const key = apiKey ?? process.env[environmentVariable];
  if (key === undefined || key === '') {
    throw new ModelCallError({
      kind: 'authentication',
      isRetryable: false,
      message: `${providerName} API key is missing: pass it as ${factory}(model, { apiKey }) or set the ${environmentVariable} environment variable.`,
    });
  }
  return key;
}
