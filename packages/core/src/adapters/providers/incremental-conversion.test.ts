import { describe, expect, it } from 'vitest';
import type { Message } from '../../kernel/protocol/message.js';
import { IncrementalConverter } from './incremental-conversion.js';

describe('IncrementalConverter', () => {
  it('converts each message of a growing history once, however many calls', () => {
    let conversions = 0;
    const converter = new IncrementalConverter<string>((params, message) => {
      conversions++;
      params.push(message.role);
    });
    const history: Message[] = [];
    for (let step = 0; step < 500; step++) {
      history.push({ role: 'user', content: `q${step}` });
      history.push({ role: 'assistant', content: `a${step}`, toolCalls: [] });
      expect(converter.convert(history)).toHaveLength(history.length);
    }
    expect(conversions).toBe(1000);
  });

  it('converts a different array (a memory window) afresh', () => {
    const converter = new IncrementalConverter<string>((params, message) =>
      params.push(message.role),
    );
    const history: Message[] = [{ role: 'user', content: 'a' }];
    converter.convert(history);
    expect(converter.convert([{ role: 'assistant', content: 'b', toolCalls: [] }])).toEqual([
      'assistant',
    ]);
  });
});
