/**
 * The price of a model, in US dollars per million tokens, with where it comes from and when it was
 * read. Cached input is what a prompt-cache hit costs; cache writes are Anthropic's 5-minute
 * cache writes.
 */
export interface ModelPrice {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
  /** Input tokens read from the prompt cache. @defaultValue the input price */
  readonly cachedInputPerMillion?: number;
  /** Input tokens written to the prompt cache. @defaultValue the input price */
  readonly cacheWritePerMillion?: number;
  /** Where the price was read, e.g. the provider's pricing page. */
  readonly source: string;
  /** When it was read (YYYY-MM-DD): prices change; check and override them. */
  readonly asOf: string;
}

const openaiPricing = 'https://openai.com/api/pricing';
const anthropicPricing = 'https://docs.anthropic.com/en/docs/about-claude/pricing';

const openai = (
  inputPerMillion: number,
  cachedInputPerMillion: number,
  outputPerMillion: number,
  asOf: string,
): ModelPrice => ({
  inputPerMillion,
  cachedInputPerMillion,
  outputPerMillion,
  source: openaiPricing,
  asOf,
});

const anthropic = (
  inputPerMillion: number,
  outputPerMillion: number,
  asOf: string,
): ModelPrice => ({
  inputPerMillion,
  outputPerMillion,
  // Anthropic prices cache reads at a tenth of the input, 5-minute cache writes at 1.25 times it.
  cachedInputPerMillion: inputPerMillion / 10,
  cacheWritePerMillion: inputPerMillion * 1.25,
  source: anthropicPricing,
  asOf,
});

/**
 * The prices agent-trace knows, by `<provider>:<model>` (the model-string names: `openai`,
 * `anthropic`). Standard (not batch, not priority) prices, read on the `asOf` date: a model not
 * here has an unknown cost, never a guess. Extend or override them with `run(…, { prices })`.
 */
export const defaultPrices: Readonly<Record<string, ModelPrice>> = Object.freeze({
  'openai:gpt-4o': openai(2.5, 1.25, 10, '2025-08-07'),
  'openai:gpt-4o-mini': openai(0.15, 0.075, 0.6, '2025-08-07'),
  'openai:gpt-4.1': openai(2, 0.5, 8, '2025-08-07'),
  'openai:gpt-4.1-mini': openai(0.4, 0.1, 1.6, '2025-08-07'),
  'openai:gpt-4.1-nano': openai(0.1, 0.025, 0.4, '2025-08-07'),
  'openai:o3': openai(2, 0.5, 8, '2025-08-07'),
  'openai:o4-mini': openai(1.1, 0.275, 4.4, '2025-08-07'),
  'openai:gpt-5': openai(1.25, 0.125, 10, '2025-08-07'),
  'openai:gpt-5-mini': openai(0.25, 0.025, 2, '2025-08-07'),
  'openai:gpt-5-nano': openai(0.05, 0.005, 0.4, '2025-08-07'),
  'anthropic:claude-opus-4-1': anthropic(15, 75, '2025-08-05'),
  'anthropic:claude-haiku-4-5': anthropic(1, 5, '2025-10-15'),
});

/**
 * The price-table provider of a model's `provider`: the part before its first dot, as the
 * adapters name a provider's API under it (`openai.chat` and `openai.responses` are `openai`,
 * `anthropic.messages` is `anthropic`), so a new adapter needs no entry here.
 */
export function priceProvider(provider: string): string {
  const dot = provider.indexOf('.');
  return dot === -1 ? provider : provider.slice(0, dot);
}

/** A dated snapshot's base model: `gpt-4o-2024-08-06` → `gpt-4o`, `claude-haiku-4-5-20251001` → `claude-haiku-4-5`. */
function baseModel(modelId: string): string | undefined {
  const dated = /^(.+?)-(?:\d{4}-\d{2}-\d{2}|\d{8})$/.exec(modelId);
  return dated?.[1];
}

/** A table of model prices: the defaults, with the user's entries over them. */
export class PriceTable {
  readonly #entries: ReadonlyMap<string, ModelPrice>;
  readonly #found = new Map<
    string,
    { readonly key: string; readonly price: ModelPrice } | undefined
  >();

  constructor(overrides: Readonly<Record<string, ModelPrice>> = {}, base = defaultPrices) {
    this.#entries = new Map([...Object.entries(base), ...Object.entries(overrides)]);
  }

  /**
   * The price of `modelId` served by `provider`, and the key it was found under; undefined when
   * the table has none (the cost is then unknown). A dated snapshot takes its base model's price
   * unless the table names the snapshot itself.
   */
  priceOf(
    provider: string,
    modelId: string,
  ): { readonly key: string; readonly price: ModelPrice } | undefined {
    // Asked at every model call: each model is looked up once.
    const asked = `${provider}\u0000${modelId}`;
    if (this.#found.has(asked)) return this.#found.get(asked);
    const name = priceProvider(provider);
    let found: { readonly key: string; readonly price: ModelPrice } | undefined;
    for (const id of [modelId, baseModel(modelId)]) {
      const price = id === undefined ? undefined : this.#entries.get(`${name}:${id}`);
      if (price !== undefined) {
        found = { key: `${name}:${id}`, price };
        break;
      }
    }
    this.#found.set(asked, found);
    return found;
  }
}
