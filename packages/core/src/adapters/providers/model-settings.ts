/** The options of a provider model that change its answers, as `LanguageModel.settings` shows them. */
export function modelSettings(
  options: {
    readonly temperature?: number | undefined;
    readonly maxOutputTokens?: number | undefined;
  },
  /** The provider's own options that change answers (thinking, reasoning effort), when set. */
  own: Readonly<Record<string, unknown>> = {},
): Readonly<Record<string, unknown>> {
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(own)) if (value !== undefined) settings[key] = value;
  if (options.temperature !== undefined) settings.temperature = options.temperature;
  if (options.maxOutputTokens !== undefined) settings.maxOutputTokens = options.maxOutputTokens;
  return Object.freeze(settings);
}
