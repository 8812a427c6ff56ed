import type { TextPiece, TextPieceLabel, TextSplitter } from '../../kernel/run/seam/feature.js';

const labelNames: Readonly<Record<string, TextPieceLabel>> = {
  thought: 'thought',
  action: 'action',
  'action input': 'action_input',
  observation: 'observation',
  'final answer': 'answer',
};

/** A whole label at the start of a line, as the ReAct parser reads it. */
const labelLine =
  /^[ \t]*(?:\*\*)?(thought|action input|action|observation|final answer)(?:\*\*)?[ \t]*:$/i;

/** The line breaks where the parser's labels may start. */
const lineBreaks = new Set(['\n', '\r', '\u2028', '\u2029']);

/** True while `line` (the start of a line) may still become a label. */
function mayBecomeLabel(line: string): boolean {
  const rest = line.replace(/^[ \t]*/, '');
  if (rest === '*') return true;
  const body = (rest.startsWith('**') ? rest.slice(2) : rest).toLowerCase();
  return Object.keys(labelNames).some(
    name =>
      name.startsWith(body) ||
      (body.startsWith(name) && /^(?:\*\*?)?[ \t]*$/.test(body.slice(name.length))),
  );
}

/**
 * Splits ReAct text as it streams: the Thought, Action, Action Input and Observation parts, and
 * the Final Answer (`answer`). The labels themselves are dropped, and the blanks after them. A
 * line is held back only while it may still be a label (`Act…`), so text streams as it comes.
 */
export class ReActSplitter implements TextSplitter {
  #label: TextPieceLabel = 'thought';
  /** The start of the current line, held while it may still be a label. */
  #line = '';
  #holding = true;
  /** After a label: blanks are dropped until its text starts. */
  #trimStart = false;
  #out: TextPiece[] = [];

  push(text: string): TextPiece[] {
    for (const character of text) this.#take(character);
    return this.#drain();
  }

  flush(): TextPiece[] {
    if (this.#line !== '') this.#emit(this.#line);
    this.#line = '';
    return this.#drain();
  }

  #take(character: string): void {
    const lineBreak = lineBreaks.has(character);
    if (this.#holding && !lineBreak) {
      this.#line += character;
      const label = labelLine.exec(this.#line);
      if (label !== null) {
        this.#label = labelNames[(label[1] ?? '').toLowerCase()] ?? this.#label;
        this.#line = '';
        this.#holding = false;
        this.#trimStart = true;
      } else if (!mayBecomeLabel(this.#line)) {
        this.#emit(this.#line);
        this.#line = '';
        this.#holding = false;
      }
      return;
    }
    if (lineBreak) {
      this.#emit(this.#line + character);
      this.#line = '';
      this.#holding = true;
      return;
    }
    this.#emit(character);
  }

  #emit(text: string): void {
    const kept = this.#trimStart ? text.replace(/^\s+/, '') : text;
    if (kept === '') return;
    this.#trimStart = false;
    const last = this.#out.at(-1);
    if (last?.label === this.#label)
      this.#out[this.#out.length - 1] = { label: last.label, text: last.text + kept };
    else this.#out.push({ label: this.#label, text: kept });
  }

  #drain(): TextPiece[] {
    const out = this.#out;
    this.#out = [];
    return out;
  }
}
