/** The options of a provider model that change its answers, as `LanguageModel.settings` shows them. */
export function modelSettings(options: {
  readonly temperature?: number | undefined;
  readonly maxOutputTokens?: number | undefined;
}): Readonly<Record<string, unknown>> {
  const settings: Record<string, unknown> = {};
  if (options.temperature !== undefined) settings.temperature = options.temperature;
  if (options.maxOutputTokens !== undefined) settings.maxOutputTokens = options.maxOutputTokens;
  return Object.freeze(settings);
}
