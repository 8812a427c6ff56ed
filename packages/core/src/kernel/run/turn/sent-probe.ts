import type {
  LanguageModel,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
} from '../../model/language-model.js';

/** What an attempt is told when the model under the features' wrappers is sent a request. */
export interface SentRequestListener {
  sent(request: ModelRequest): void;
}

/**
 * Sits under the models a feature's `model` hook wraps, so that what the model was sent after a
 * wrapper changed the request is what the trace says: the attempt of a model call listens while it
 * runs, and is told the request the wrapper passed on (the first one, should it pass on several).
 * A wrapper that answers without asking the model (a cache hit) tells nothing; the attempt then
 * records the request the loop made.
 */
export class SentProbe {
  #listener: SentRequestListener | undefined;

  /** The attempt told of the requests from now on; undefined between attempts. */
  listen(listener: SentRequestListener | undefined): void {
    this.#listener = listener;
  }

  /** `model`, telling the attempt listening what it was sent before it answers. */
  wrap(model: LanguageModel): LanguageModel {
    const tell = (request: ModelRequest): void => this.#tell(request);
    const probed: LanguageModel = {
      specificationVersion: 'v1',
      provider: model.provider,
      modelId: model.modelId,
      generate(request: ModelRequest): Promise<ModelResponse> {
        tell(request);
        return model.generate(request);
      },
      stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
        tell(request);
        return model.stream(request);
      },
    };
    return Object.assign(
      probed,
      model.settings === undefined ? {} : { settings: model.settings },
      model.server === undefined ? {} : { server: model.server },
    );
  }

  #tell(request: ModelRequest): void {
    const listener = this.#listener;
    this.#listener = undefined;
    listener?.sent(request);
  }
}
