import { isValidPhoneNumber } from 'libphonenumber-js/min';
/**
 * A shape of text to redact. Where the pattern has a group named `secret`, only that part is
 * replaced (the context around it, `aws_secret_access_key=`, stays readable); else the whole match.
 */
export interface RedactionRule {
  readonly pattern: RegExp;
  /** A match is replaced only when this holds (a card number's Luhn check). */
  readonly accept?: (match: string) => boolean;
}

/**
 * Where a secret that spans whitespace begins: while such an opening has no end in the text read
 * so far, a stream holds the text back from it (see `DeltaRedactor`).
 */
export type Opening = RegExp;

const rule = (pattern: RegExp, accept?: (match: string) => boolean): RedactionRule =>
  accept === undefined ? { pattern } : { pattern, accept };

/**
 * Where a secret's name or prefix may start: not inside a word, or right after an escape of JSON
 * text (`\naws_secret_access_key=…` in a tool result written as JSON: the `n` of `\n` is a word
 * character, so `\b` alone would miss it), or after `_` for names (`MY_AWS_SECRET_ACCESS_KEY`).
 */
const wordStart = String.raw`(?:\b|(?<=\\[nrtbf]))`;
const nameStart = String.raw`(?:(?<![A-Za-z0-9])|(?<=\\[nrtbf]))`;

/** A pattern that starts where a word does (see {@link wordStart}). */
const word = (source: string, flags: string) => new RegExp(`${wordStart}${source}`, flags);

/** An AWS secret access key's name, as an environment variable, an ini key or a field. */
const awsSecretName = String.raw`${nameStart}(?:aws_?)?secret_?access_?key\\?["']?\s*`;

/** Keys, tokens and credentials of the common services and formats. */
export const knownSecretRules: readonly RedactionRule[] = [
  // OpenAI and Anthropic keys
  rule(word(String.raw`sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}`, 'g')),
  rule(word(String.raw`Bearer\s+[A-Za-z0-9._~+/-]{8,}=*`, 'gi')),
  // AWS access key ids, and secret access keys next to their name
  rule(word(String.raw`(?:AKIA|ASIA)[0-9A-Z]{16}\b`, 'g')),
  rule(
    new RegExp(
      String.raw`${awsSecretName}[:=]\s*\\?["']?(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])`,
      'gi',
    ),
  ),
  // GitHub tokens
  rule(word(String.raw`gh[pousr]_[A-Za-z0-9]{30,}\b`, 'g')),
  rule(word(String.raw`github_pat_[A-Za-z0-9_]{40,}`, 'g')),
  // Slack tokens and webhooks
  rule(word(String.raw`xox[abeprs]-[A-Za-z0-9-]{10,}`, 'g')),
  rule(word(String.raw`xapp-\d-[A-Za-z0-9-]{10,}`, 'g')),
  rule(/https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]{20,}/g),
  // Google API keys
  rule(word(String.raw`AIza[0-9A-Za-z_-]{35}\b`, 'g')),
  // Stripe secret and restricted keys, webhook secrets
  rule(word(String.raw`(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}`, 'g')),
  rule(word(String.raw`whsec_[0-9A-Za-z]{24,}`, 'g')),
  // JSON Web Tokens: header.payload.signature, base64url, the header a JSON object
  rule(word(String.raw`eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`, 'g')),
  // PEM private key blocks
  rule(
    /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----/g,
  ),
  // Credentials inside URLs: scheme://user:password@host
  rule(/\b[a-z][a-z0-9+.-]*:\/\/(?<secret>[^\s/?#@:]+:[^\s/?#@]+)@/gi),
  // Authorization headers written as text
  rule(
    word(
      String.raw`(?:proxy-)?authorization\s*:\s*(?:basic|bearer|token|digest)?\s*[A-Za-z0-9._~+/=-]{8,}`,
      'gi',
    ),
  ),
];

/**
 * The beginnings of the known secrets that may span whitespace, reaching the end of the text:
 * `Bearer abc` may still become `Bearer abcdefgh…`.
 */
export const knownSecretOpenings: readonly Opening[] = [
  word(String.raw`Bearer\s+[A-Za-z0-9._~+/-]*=*$`, 'i'),
  word(
    String.raw`(?:proxy-)?authorization\s*:\s*(?:(?:basic|bearer|token|digest)\s*)?[A-Za-z0-9._~+/=-]*$`,
    'i',
  ),
  /-----BEGIN[ A-Z0-9-]*$/,
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?![\s\S]*-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----)/,
  new RegExp(String.raw`${awsSecretName}(?:[:=]\s*\\?["']?[A-Za-z0-9/+]*)?$`, 'i'),
];

/** Personal data, redacted when `pii` is on. */
export const piiRules: readonly RedactionRule[] = [
  // e-mail addresses
  rule(/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g),
  // payment card numbers: 13 to 19 digits, spaced or dashed in groups, that pass the Luhn check
  rule(/(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g, isLuhnValid),
  // phone numbers: a run of digits and separators, with an optional +country code and (area), that
  // libphonenumber-js (Google's phone-number metadata) says is a valid number: international form,
  // or national form of the North American plan; not part of a longer run of digits
  rule(
    /(?<![\w+]|\d[ .-])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d[\d .-]{5,17}\d(?![ .-]?\d)(?![\w-])/g,
    isPhoneNumber,
  ),
];

/** True when `text` is a valid phone number: international, or national in the North American plan. */
export function isPhoneNumber(text: string): boolean {
  const digits = text.replace(/\D/g, '').length;
  return digits >= 7 && digits <= 15 && isValidPhoneNumber(text, 'US');
}

/** Where personal data that may span whitespace begins: digits with separators, at the end. */
export const piiOpenings: readonly Opening[] = [/(?<![\w+])[+(]?\d[\d ().-]*$/];

/** True when the digits of `text` pass the Luhn check of card numbers. */
export function isLuhnValid(text: string): boolean {
  const digits = text.replace(/\D/g, '');
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length >= 13 && sum % 10 === 0;
}
