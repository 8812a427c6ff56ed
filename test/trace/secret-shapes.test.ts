import { agent, run, stream, tool, type Chunk } from '@agent-trace/core';
import { Redactor } from '@agent-trace/core/redaction';
import { placeholderFor } from '@agent-trace/core/internal';
import { fakeLLM } from '@agent-trace/testing';
import { startOtlpReceiver } from '@agent-trace/testing/otlp';
import { memorySink } from '@agent-trace/trace';
import { otlpSink } from '@agent-trace/trace/otlp';
import { viewerHtml } from '@agent-trace/viewer';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const alnum = (length: number, seed = 7) =>
  Array.from({ length }, (_, index) => 'aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0z'[(index * seed) % 31]).join(
    '',
  );

/** Each shape: the text a secret appears in, and the part that must never show. */
const shapes: Record<string, { text: string; secret: string }> = {
  jwt: {
    text: 'token eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c here',
    secret:
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  },
  'AWS secret access key': {
    text: 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  },
  'AWS access key id': { text: 'id AKIAIOSFODNN7EXAMPLE ok', secret: 'AKIAIOSFODNN7EXAMPLE' },
  // The next ones start a line: in a tool result written as JSON text, right after `\n`.
  'AWS secret access key as an environment variable': {
    text: 'HOME=/root\nAWS_SECRET_ACCESS_KEY=Zx9kLmQ2rT7vW4yB8nC1pD5fG3hJ6kS0aE2uI9oP\nPATH=/bin',
    secret: 'Zx9kLmQ2rT7vW4yB8nC1pD5fG3hJ6kS0aE2uI9oP',
  },
  'AWS credentials in an ini file': {
    text: '[default]\naws_access_key_id = ASIAQWERTYUIOPASDFGH\naws_secret_access_key = Qw3eRt5yUi7oPa9sDf1gHj2kLz4xCv6bNm8qWe0r\n',
    secret: 'Qw3eRt5yUi7oPa9sDf1gHj2kLz4xCv6bNm8qWe0r',
  },
  'AWS secret access key assigned to a variable of its own': {
    text: 'export MY_APP_AWS_SECRET_ACCESS_KEY="Pl0kMn9jIu8hYg7tFr6dEs5wAq4zXc3vBn2mLk1j"',
    secret: 'Pl0kMn9jIu8hYg7tFr6dEs5wAq4zXc3vBn2mLk1j',
  },
  'GitHub token at the start of a line': {
    text: `tokens:\nghp_${alnum(36, 17)}\n`,
    secret: `ghp_${alnum(36, 17)}`,
  },
  'Google API key': {
    text: `key=AIza${alnum(35)}`,
    secret: `AIza${alnum(35)}`,
  },
  'Slack token': {
    text: 'bot xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOp set',
    secret: 'xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOp',
  },
  'Slack webhook': {
    text: 'post to https://hooks.slack.com/services/T0000AAAA/B1111BBBB/abcdefghijklmnopqrstuvwx now',
    secret: 'T0000AAAA/B1111BBBB/abcdefghijklmnopqrstuvwx',
  },
  'Stripe key': { text: `stripe sk_live_${alnum(24, 5)}.`, secret: `sk_live_${alnum(24, 5)}` },
  'PEM private key': {
    text: `key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA${alnum(64, 11)}\n${alnum(64, 13)}==\n-----END RSA PRIVATE KEY-----\ndone`,
    secret: `MIIEowIBAAKCAQEA${alnum(64, 11)}`,
  },
  'credentials in a URL': {
    text: 'connect to postgres://admin:s3cr3tPass@db.internal:5432/app please',
    secret: 'admin:s3cr3tPass',
  },
  'OpenAI key': { text: `use sk-proj-${alnum(32, 3)}`, secret: `sk-proj-${alnum(32, 3)}` },
  'bearer token': { text: 'Authorization: Bearer abc.def-ghi_jkl', secret: 'abc.def-ghi_jkl' },
  'password field in JSON text': {
    text: 'config {"user": "ana", "password": "hunter2-correct-horse"} end',
    secret: 'hunter2-correct-horse',
  },
  'secret field whose value has spaces': {
    text: '{"api_key" : "correct horse battery staple"}',
    secret: 'correct horse battery staple',
  },
};

const collector = await startOtlpReceiver();
afterAll(() => collector.close());

async function runWith(text: string, options: { pii?: boolean } = {}) {
  const memory = memorySink();
  const otlp = otlpSink({ endpoint: collector.url, captureContent: true, awaitAtRunEnd: true });
  const echo = tool({
    name: 'read_note',
    description: 'Reads a note',
    input: z.object({}),
    execute: () => ({ note: text }),
  });
  const subject = agent({
    name: 'ops',
    model: fakeLLM([{ toolCalls: [{ name: 'read_note' }] }, { text: `Found: ${text}`, deltas: 3 }]),
    tools: [echo],
  });
  const chunks: Chunk[] = [];
  const running = stream(subject, `Look at this: ${text}`, {
    trace: [memory, otlp],
    ...(options.pii === true ? { redaction: { pii: true } } : {}),
  });
  for await (const chunk of running) chunks.push(chunk);
  await running.result;
  await otlp.shutdown();
  const runId = memory.events[0]!.run;
  const spans = collector.spans.filter(span => span.attributes['agent_trace.run_id'] === runId);
  const bigints = (_: string, value: unknown) =>
    typeof value === 'bigint' ? value.toString() : value;
  return { events: JSON.stringify(memory.events), spans: JSON.stringify(spans, bigints), chunks };
}

describe('every secret shape is redacted in the trace, the OTLP spans and the chunks', () => {
  beforeAll(() => collector.setBehaviour({ kind: 'accept' }));
  for (const [name, { text, secret }] of Object.entries(shapes)) {
    it(name, async () => {
      const { events, spans, chunks } = await runWith(text);
      expect(spans.length).toBeGreaterThan(100);
      for (const where of [events, spans, JSON.stringify(chunks)]) {
        expect(where).not.toContain(secret);
        expect(where).toContain('[redacted:');
      }
      const answer = chunks
        .filter(chunk => chunk.type === 'delta')
        .map(chunk => (chunk.data as { text: string }).text)
        .join('');
      expect(answer).toBe(new Redactor().string(`Found: ${text}`));
    });
  }
});

describe('personal data, when pii is on', () => {
  const cases: Record<string, { text: string; kept?: string; secret: string }> = {
    'e-mail': { text: 'write to jane.doe@example.com today', secret: 'jane.doe@example.com' },
    phone: { text: 'call +1 415 555 0100 now', secret: '415 555 0100' },
    'phone, (area) national form': { text: 'call (415) 555-0132 now', secret: '555-0132' },
    'phone, international groups of two': {
      text: 'in Paris: +33 1 23 45 67 89',
      secret: '45 67 89',
    },
    'phone, E.164 without separators': { text: 'sms +14155550132 please', secret: '4155550132' },
    'phone next to a date and a version': {
      text: 'on 2024-01-15 v1.2.3 call 415-555-0132',
      secret: '555-0132',
      kept: '2024-01-15 v1.2.3',
    },
    'card number (Luhn)': {
      text: 'card 4111 1111 1111 1111 and order 1234 5678 9012 3456',
      secret: '4111 1111 1111 1111',
      kept: '1234 5678 9012 3456', // fails the Luhn check: an order number, left alone
    },
  };
  for (const [name, { text, secret, kept }] of Object.entries(cases)) {
    it(`redacts ${name}`, async () => {
      const { events, spans, chunks } = await runWith(text, { pii: true });
      for (const where of [events, spans, JSON.stringify(chunks)]) {
        expect(where).not.toContain(secret);
        if (kept !== undefined) expect(where).toContain(kept);
      }
    });
  }

  it('is off by default', async () => {
    const { events } = await runWith('write to jane.doe@example.com today');
    expect(events).toContain('jane.doe@example.com');
  });
});

describe('a secret split across streamed deltas', () => {
  it('never reaches a chunk, wherever it is split, and the deltas join to the redacted answer', async () => {
    const entries = Object.values(shapes);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...entries),
        fc.array(fc.constantFrom('ok', 'the', 'key:', '\n', '"x"', 'is', '-', '—'), {
          maxLength: 4,
        }),
        fc.array(fc.integer({ min: 1, max: 400 }), { maxLength: 12 }),
        async ({ text, secret }, words, cuts) => {
          const full = `${words.join(' ')} ${text} ${words.reverse().join(' ')}`;
          const points = [...new Set(cuts.filter(cut => cut < full.length))].sort((a, b) => a - b);
          const deltas = [0, ...points, full.length]
            .slice(1)
            .map((end, index, ends) => full.slice(index === 0 ? 0 : ends[index - 1], end))
            .filter(piece => piece !== '');
          const running = stream(
            agent({ name: 'a', model: fakeLLM([{ text: full, deltas }]) }),
            'go',
            { trace: memorySink() },
          );
          const shown: string[] = [];
          for await (const chunk of running)
            if (chunk.type === 'delta') shown.push((chunk.data as { text: string }).text);
          await running.result;
          for (const piece of shown) expect(piece).not.toContain(secret);
          expect(shown.join('')).toBe(new Redactor().string(full));
          expect(shown.join('')).toContain(placeholderFor(secret).slice(0, 10));
        },
      ),
      { numRuns: 300, seed: 20261123 },
    );
  });
});

describe('a redactor that has seen strings before', () => {
  it('answers each one as a fresh redactor does, with and without pii and rules of your own', () => {
    const pieces = [
      ...Object.values(shapes).flatMap(({ text, secret }) => [text, secret]),
      'fake-model',
      'tool_calls',
      '{"a":0,"b":1}',
      'card 4111 1111 1111 1111',
      'mail ana@example.com',
      'ticket T-12345',
    ];
    const text = fc.oneof(
      fc.constantFrom(...pieces),
      fc.tuple(fc.constantFrom(...pieces), fc.string({ maxLength: 12 })).map(([a, b]) => a + b),
    );
    const options = [{}, { pii: true }, { patterns: [/T-\d+/g] }];
    fc.assert(
      fc.property(fc.array(text, { maxLength: 40 }), fc.constantFrom(...options), (texts, set) => {
        const warm = new Redactor(set);
        for (const item of [...texts, ...texts]) {
          const fresh = new Redactor(set);
          const before = warm.count;
          expect(warm.string(item)).toBe(fresh.string(item));
          expect(warm.count - before).toBe(fresh.count);
        }
      }),
      { numRuns: 300, seed: 20261125 },
    );
  });
});

describe('an AWS secret key in what a run returns and in the viewer page', () => {
  it('is redacted in the returned error and the page, in its environment form inside JSON text', async () => {
    const key = 'Hg7fDs5aPo3iUy1tRe9wQl8kJh6gFd4sAz2xCv0b';
    const failing = tool({
      name: 'deploy',
      description: 'Deploys',
      input: z.object({}),
      execute: () => {
        throw new Error(
          `the deploy failed: ${JSON.stringify({ env: `HOME=/root\nAWS_SECRET_ACCESS_KEY=${key}` })}`,
        );
      },
    });
    const memory = memorySink();
    const result = await run(
      agent({
        name: 'ops',
        model: fakeLLM([{ toolCalls: [{ name: 'deploy' }] }, { text: 'It failed.' }]),
        tools: [failing],
      }),
      'Deploy',
      { trace: memory },
    );
    const returned = JSON.stringify(
      { error: result.error, calls: result.toolCalls },
      (_key: string, value: unknown): unknown =>
        value instanceof Error ? { message: value.message, stack: value.stack } : value,
    );
    expect(returned).toContain('[redacted:');
    expect(returned).not.toContain(key);
    const page = viewerHtml({
      mode: 'trace',
      title: 'ops',
      files: [{ name: 'ops.jsonl', events: memory.events, warnings: [] }],
    });
    expect(JSON.stringify(memory.events)).not.toContain(key);
    expect(page).not.toContain(key);
  });
});
