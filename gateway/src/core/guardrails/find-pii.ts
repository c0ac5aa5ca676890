import type { PiiEntity } from '../../wire/guardrail-schema.js';

/** Where a rule matched in a text, and what it found. */
export interface TextMatch {
  start: number;
  end: number;
  kind: string;
}

/** Every Luhn-valid digit run of 13 to 19 digits, spaces or dashes between groups allowed. */
const CARD = /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g;
/** Two letters, two check digits, then 11 to 30 letters or digits, in groups of four or not. */
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g;
const EMAIL = /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*\.[A-Za-z]{2,24}/g;
/** International or national numbers: an optional +country code, then 8 to 14 more digits in groups. */
const PHONE = /(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d{2,4}(?:[ .-]?\d{2,4}){2,4}(?![\w])/g;
/** Well-known credential formats: OpenAI/Anthropic-style sk- keys, AWS access key ids, GitHub, Slack, Google and Stripe tokens, PEM private keys. */
const SECRET =
  /\b(?:sk-(?:proj-|ant-|svcacct-)?[A-Za-z0-9_-]{20,200}|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255}|xox[abprs]-[A-Za-z0-9-]{10,200}|AIza[0-9A-Za-z_-]{35}|[rs]k_live_[0-9A-Za-z]{24,99})\b|-----BEGIN [A-Z ]{0,20}PRIVATE KEY-----/g;

function digitsOf(text: string): string {
  return text.replace(/\D/g, '');
}

/** The Luhn checksum every payment card number passes. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** ISO 13616: the country code and check digits moved to the end, letters as numbers, the whole mod 97 is 1. */
export function passesIbanCheck(iban: string): boolean {
  const compact = iban.replace(/ /g, '');
  if (compact.length < 15 || compact.length > 34) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const character of rearranged) {
    const value = character >= 'A' ? String(character.charCodeAt(0) - 55) : character;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

function matchesOf(pattern: RegExp, text: string, kind: string, keep: (found: string) => boolean = () => true) {
  const found: TextMatch[] = [];
  for (const match of text.matchAll(pattern))
    if (keep(match[0])) found.push({ start: match.index, end: match.index + match[0].length, kind });
  return found;
}

const overlaps = (a: TextMatch, b: TextMatch): boolean => a.start < b.end && b.start < a.end;

/**
 * The personal data and secrets in `text`, earliest first, none overlapping: secrets, IBANs and
 * cards (checksums verified) win over the phone numbers their digits would also look like.
 */
export function findPii(text: string, entities: readonly PiiEntity[]): TextMatch[] {
  const wanted = new Set(entities);
  const candidates: TextMatch[] = [];
  if (wanted.has('secret')) candidates.push(...matchesOf(SECRET, text, 'secret'));
  if (wanted.has('iban')) candidates.push(...matchesOf(IBAN, text, 'iban', passesIbanCheck));
  if (wanted.has('card')) {
    candidates.push(
      ...matchesOf(CARD, text, 'card', (found) => {
        const digits = digitsOf(found);
        return digits.length >= 13 && digits.length <= 19 && passesLuhn(digits);
      }),
    );
  }
  if (wanted.has('email')) candidates.push(...matchesOf(EMAIL, text, 'email'));
  if (wanted.has('phone')) {
    candidates.push(
      ...matchesOf(PHONE, text, 'phone', (found) => {
        const digits = digitsOf(found).length;
        return digits >= 9 && digits <= 15;
      }),
    );
  }
  const kept: TextMatch[] = [];
  for (const candidate of candidates) if (!kept.some((other) => overlaps(other, candidate))) kept.push(candidate);
  return kept.sort((a, b) => a.start - b.start);
}
