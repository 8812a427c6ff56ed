import type { Redaction } from '../../kernel/trace/redaction.js';
import { DeltaRedactor } from './delta-redactor.js';
import { redactError, redactMessage } from './redact-returned.js';
import { hashString } from '../../kernel/util/hash.js';
import {
  knownSecretOpenings,
  knownSecretRules,
  piiOpenings,
  piiRules,
  type Opening,
  type RedactionRule,
} from './secret-rules.js';

/** Options of redaction: what counts as a secret besides the known shapes. */
export interface RedactionOptions {
  /** More patterns; every match is replaced. */
  patterns?: readonly RegExp[];
  /** More field names whose values are replaced whole (compared case-insensitively). */
  fields?: readonly string[];
  /** Your own rule: return the replacement of a string, or undefined to leave it. */
  redact?: (value: string) => string | undefined;
  /**
   * Redact the known secret shapes: OpenAI/Anthropic keys, bearer tokens, AWS access key ids and
   * secret access keys, GitHub, Slack, Google and Stripe keys, JWTs, PEM private keys, credentials
   * in URLs, and `Authorization`-like and password fields. @defaultValue true
   */
  knownSecrets?: boolean;
  /**
   * Also redact personal data: e-mail addresses, phone numbers, and card numbers that pass the
   * Luhn check. @defaultValue false
   */
  pii?: boolean;
}

const knownFields = [
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'api_key',
  'apikey',
  'password',
  'secret',
  'client_secret',
  'access_token',
  'refresh_token',
  'aws_secret_access_key',
  'secret_access_key',
  'secretaccesskey',
  'private_key',
];

const placeholderShape = /^\[redacted(?::[0-9a-f]+)?\]$/;

/** The shortest text a known secret rule can match (`Bearer ` + 8, `xoxb-` + 10, `a://b:c@`). */
const shortestKnownSecret = 8;
/** Field-name verdicts kept per redactor; field names repeat, so this stays small in practice. */
const fieldVerdictLimit = 4096;
/**
 * Short strings the rules found nothing in, remembered per redactor: a run repeats them on every
 * step (a model's name, a finish reason, the hashes of the instructions and the tools, a tool's
 * arguments in the answer, its call and the next request), and looking one up costs a fraction
 * of a regular expression's start. Longer strings are scanned each time, so the memo holds little.
 */
const cleanLimit = 1024;
const cleanLength = 256;

/** The stable placeholder of a secret: the same secret always gives the same one. */
export function placeholderFor(secret: string): string {
  return `[redacted:${hashString(secret).slice(-8)}]`;
}

/**
 * Replaces secrets in trace events and chunks before any sink sees them: the one choke point of
 * redaction. Placeholders are stable (a hash of the secret), so a redacted recording still
 * replays and diffs. Objects are copied only where something changed.
 */
export class Redactor implements Redaction {
  /** How many values were replaced so far. */
  count = 0;
  /** The compiled rules, when no function of your own joins them: redactors that redact alike. */
  readonly alike: object | undefined;
  readonly #rules: readonly RedactionRule[];
  readonly #anyPattern: RegExp | undefined;
  readonly #openings: readonly Opening[];
  readonly #fields: ReadonlySet<string>;
  /** A secret field written as JSON text (a tool result in a message): `"api_key": "…"`. */
  readonly #fieldText: RegExp | undefined;
  readonly #custom: ((value: string) => string | undefined) | undefined;
  /** Shorter strings cannot match a pattern (known shapes only; 0 with patterns of your own). */
  readonly #shortest: number;
  /** Whether a field name is a secret one, by name as written. */
  readonly #fieldVerdicts: Map<string, boolean>;
  /** Short strings the rules left as they were (see `cleanLimit`). */
  readonly #clean = new Set<string>();

  constructor(options: RedactionOptions = {}) {
    // The known shapes alone (every run's default) are compiled once for the process.
    const compiled =
      options.patterns === undefined &&
      options.fields === undefined &&
      options.knownSecrets !== false &&
      options.pii !== true
        ? (defaultRules ??= compileRules({}))
        : compileRules(options);
    this.#rules = compiled.rules;
    this.#anyPattern = compiled.anyPattern;
    this.#fields = compiled.fields;
    this.#fieldText = compiled.fieldText;
    this.#shortest = compiled.shortest;
    this.#openings = compiled.openings;
    this.#fieldVerdicts = compiled.fieldVerdicts;
    this.#custom = options.redact;
    this.alike = options.redact === undefined ? compiled : undefined;
  }

  /**
   * Where text that may still grow into a secret spanning whitespace begins (a `Bearer ` without
   * its token yet, a PEM block without its end, a secret field's JSON value without its quote).
   * A stream holds its text back from the earliest of these.
   */
  get openings(): readonly Opening[] {
    return this.#openings;
  }

  /** The rules in force. */
  get rules(): readonly RedactionRule[] {
    return this.#rules;
  }

  /**
   * Every pattern a match of which is replaced: the rules' and the secret fields written as JSON
   * text. A stream never cuts through a match of any of them.
   */
  get matchers(): readonly RegExp[] {
    const rules = this.#rules.map(rule => rule.pattern);
    return this.#fieldText === undefined ? rules : [...rules, this.#fieldText];
  }

  /** `text` with every secret replaced. */
  string(text: string): string {
    // Only a short string can be in the memo; a long one is not hashed to look.
    const remembered = text.length <= cleanLength && this.#clean.has(text);
    const result = remembered ? text : this.#rulesApplied(text);
    const custom = this.#custom?.(result);
    if (custom !== undefined && custom !== result) {
      this.count++;
      return custom;
    }
    return result;
  }

  /** `text` with every rule applied; remembered when short and nothing changed. */
  #rulesApplied(text: string): string {
    let result = text;
    if (this.#fieldText !== undefined && text.includes('"')) {
      result = result.replace(
        this.#fieldText,
        (match: string, before: string, secret: string, after: string) => {
          if (placeholderShape.test(secret)) return match; // already redacted: stay stable
          this.count++;
          return `${before}${placeholderFor(secret)}${after}`;
        },
      );
    }
    if (
      this.#anyPattern !== undefined &&
      text.length >= this.#shortest &&
      this.#anyPattern.test(text)
    ) {
      for (const rule of this.#rules) result = this.#apply(rule, result);
    }
    if (result === text && text.length <= cleanLength) {
      if (this.#clean.size >= cleanLimit) this.#clean.clear();
      this.#clean.add(text);
    }
    return result;
  }

  #apply({ pattern, accept }: RedactionRule, text: string): string {
    return text.replace(pattern, (match: string, ...rest: unknown[]) => {
      if (accept !== undefined && !accept(match)) return match;
      const groups = rest.at(-1);
      const secret =
        typeof groups === 'object' && groups !== null
          ? (groups as { secret?: string }).secret
          : undefined;
      if (placeholderShape.test(secret ?? match)) return match; // already redacted: stay stable
      this.count++;
      if (secret === undefined) return placeholderFor(match);
      const at = match.lastIndexOf(secret);
      return `${match.slice(0, at)}${placeholderFor(secret)}${match.slice(at + secret.length)}`;
    });
  }

  /**
   * What `work` gives, its replacements not counted in {@link Redactor.count}: for what a run
   * returns (its errors), which the count of the trace's replacements does not cover.
   */
  uncounted<T>(work: (redactor: Redactor) => T): T {
    const before = this.count;
    try {
      return work(this);
    } finally {
      this.count = before;
    }
  }

  /** A filter for streamed text: no secret split across deltas shows. */
  stream(): DeltaRedactor {
    return new DeltaRedactor(this);
  }

  /** An error a run returns, redacted where it is, not counted (see `redactError`). */
  error<E extends Error | undefined>(error: E): E {
    return redactError(error, this);
  }

  /** A message a run returns (a tool call's error), redacted, not counted. */
  message(text: string): string {
    return redactMessage(text, this);
  }

  /** `value` with secrets replaced in every string and in the values of secret fields. */
  value<T>(value: T): T {
    return this.#walk(value) as T;
  }

  #walk(value: unknown): unknown {
    if (typeof value === 'string') return this.string(value);
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) {
      const items: readonly unknown[] = value;
      let copy: unknown[] | undefined;
      for (let index = 0; index < items.length; index++) {
        const item = items[index];
        const redacted = this.#walk(item);
        if (redacted !== item) {
          copy ??= [...items];
          copy[index] = redacted;
        }
      }
      return copy ?? items;
    }
    const record = value as Record<string, unknown>;
    let copy: Record<string, unknown> | undefined;
    // for…in over own data: trace fields are plain objects, and this allocates nothing per key.
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      const item = record[key];
      if (item === null || item === undefined || item === '') continue;
      const nested = typeof item === 'string' || typeof item === 'object';
      let redacted: unknown;
      if (this.#isSecretField(key)) {
        if (typeof item === 'string' && placeholderShape.test(item)) continue; // stays stable
        this.count++;
        redacted = typeof item === 'string' ? placeholderFor(item) : '[redacted]';
      } else if (nested) {
        redacted = this.#walk(item);
      } else {
        continue; // a number or a boolean under an ordinary name
      }
      if (redacted !== item) {
        copy ??= { ...record };
        copy[key] = redacted;
      }
    }
    return copy ?? value;
  }

  #isSecretField(key: string): boolean {
    let verdict = this.#fieldVerdicts.get(key);
    if (verdict === undefined) {
      verdict = this.#fields.has(key.toLowerCase());
      if (this.#fieldVerdicts.size >= fieldVerdictLimit) this.#fieldVerdicts.clear();
      this.#fieldVerdicts.set(key, verdict);
    }
    return verdict;
  }
}

/** What a redactor's options compile to: the rules, patterns and field names it applies. */
interface CompiledRules {
  readonly rules: readonly RedactionRule[];
  readonly anyPattern: RegExp | undefined;
  readonly fields: ReadonlySet<string>;
  readonly fieldText: RegExp | undefined;
  readonly shortest: number;
  readonly openings: readonly Opening[];
  /** Whether a field name is a secret one, by name as written (filled as names are met). */
  readonly fieldVerdicts: Map<string, boolean>;
}

/** The known shapes' rules, compiled on first use. */
let defaultRules: CompiledRules | undefined;

function compileRules(options: RedactionOptions): CompiledRules {
  const known = options.knownSecrets ?? true;
  const pii = options.pii ?? false;
  const rules = [
    ...(known ? knownSecretRules : []),
    ...(pii ? piiRules : []),
    ...(options.patterns ?? []).map(pattern => ({
      pattern: new RegExp(
        pattern.source,
        pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`,
      ),
    })),
  ];
  // One quick test of every rule at once; the rules' named groups are unnamed here (a name may
  // appear only once in a regular expression).
  const anyPattern =
    rules.length === 0
      ? undefined
      : new RegExp(
          rules
            .map(({ pattern }) => `(?:${pattern.source.replace(/\(\?<(?![=!])\w+>/g, '(?:')})`)
            .join('|'),
          'i',
        );
  const fields = new Set(
    [...(known ? knownFields : []), ...(options.fields ?? [])].map(field => field.toLowerCase()),
  );
  const names = [...fields].map(field => field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const fieldText =
    names.length === 0
      ? undefined
      : new RegExp(
          `(\\\\?"(?:${names.join('|')})\\\\?"\\s*:\\s*\\\\?")((?:[^"\\\\]|\\\\(?!"))+)(\\\\?")`,
          'gi',
        );
  const shortest = (options.patterns ?? []).length === 0 && !pii ? shortestKnownSecret : 0;
  const openings = [
    ...(known ? knownSecretOpenings : []),
    ...(pii ? piiOpenings : []),
    ...(names.length === 0
      ? []
      : [
          // The key with what may follow it before the value ends: the colon, the opening quote
          // and the value's text so far. A stream cut after the key would show the value alone,
          // where no field rule can see it any more.
          new RegExp(
            `\\\\?"(?:${names.join('|')})\\\\?"\\s*(?::\\s*(?:\\\\?"(?:[^"\\\\]|\\\\(?!"))*)?)?$`,
            'i',
          ),
        ]),
  ];
  return {
    rules,
    anyPattern,
    fields,
    fieldText,
    shortest,
    openings,
    fieldVerdicts: new Map(),
  };
}
