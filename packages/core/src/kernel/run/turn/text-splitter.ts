/** What a piece of model text is: the answer, or in ReAct mode a part of a step. */
export type TextPieceLabel = 'answer' | 'thought' | 'action' | 'action_input' | 'observation';

/** A piece of a model's text, as it streams, with what it is part of. */
export interface TextPiece {
  readonly label: TextPieceLabel;
  readonly text: string;
}

/**
 * Splits a model's text, as it arrives in pieces, into what it is part of. Pushing the text whole
 * or in any pieces gives the same text per label, in the same order.
 */
export interface TextSplitter {
  /** The pieces `text` completes; text that may still be part of a label is held back. */
  push(text: string): TextPiece[];
  /** What is held back, at the end of the text. */
  flush(): TextPiece[];
}
