// What a trace file that cannot be opened advises: to fix the permissions to read it when reading,
// to choose another path when writing.
import { TraceFileError } from '@agent-trace/trace';
import { expect, it } from 'vitest';

const denied = () => Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });

it('advises reading and writing apart', () => {
  const reading = new TraceFileError({ file: 'traces/a.jsonl', action: 'read', cause: denied() });
  expect(reading.message).toBe(
    "Cannot read trace file 'traces/a.jsonl': EACCES: permission denied. Fix its permissions so this user may read it (or run as a user who may).",
  );
  const writing = new TraceFileError({
    file: 'traces/a.jsonl',
    action: 'open for writing',
    cause: denied(),
  });
  expect(writing.message).toContain('Choose a path you may write to');
});
