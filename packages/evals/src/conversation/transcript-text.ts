import type { TranscriptEntry } from './simulated-user.js';

/**
 * The transcript a conversation task's output holds (`converse`'s result, stored or not): who
 * said what, turn by turn; undefined for any other output.
 */
export function transcriptOf(output: unknown): readonly TranscriptEntry[] | undefined {
  const transcript = (output as { transcript?: unknown } | null | undefined)?.transcript;
  if (!Array.isArray(transcript)) return undefined;
  return (transcript as readonly Partial<TranscriptEntry>[]).map((entry, index) => ({
    turn: typeof entry.turn === 'number' ? entry.turn : index + 1,
    role: entry.role === 'agent' ? 'agent' : 'user',
    text: String(entry.text ?? ''),
  }));
}

/** A transcript as lines, `user: …` and `agent: …`, each cut to `width` characters. */
export function transcriptLines(transcript: readonly TranscriptEntry[], width = 100): string[] {
  return transcript.map(
    entry =>
      `${entry.role}: ${entry.text.length > width ? `${entry.text.slice(0, width - 1)}…` : entry.text}`,
  );
}
