import "server-only";
import { ZxcvbnFactory, type TranslationKeys } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";
import { newPasswordSchema } from "@/lib/validation/account-fields";

// A new password must be hard to guess, not merely long: zxcvbn estimates how many guesses an
// attacker who tries common passwords, words, keyboard rows, repeats, sequences, dates and the
// person's own name and address first would need. Its common-password list (the leaked-password
// ranking of @zxcvbn-ts/language-common) replaces the list this file used to read.

/** zxcvbn's score from 0 to 4; 3 is "safely unguessable: moderate protection from offline slow-hash scenario" (about 10^8 guesses and more). */
export const MIN_PASSWORD_SCORE = 3;

// zxcvbn's feedback keys in our words (its English package would also bring large English
// dictionaries the web server does not need).
const translations: TranslationKeys = {
  warnings: {
    straightRow: "Straight rows of keys on your keyboard are easy to guess.",
    keyPattern: "Short keyboard patterns are easy to guess.",
    simpleRepeat: 'Repeated characters like "aaa" are easy to guess.',
    extendedRepeat: 'Repeated character patterns like "abcabcabc" are easy to guess.',
    sequences: 'Common character sequences like "abc" are easy to guess.',
    recentYears: "Recent years are easy to guess.",
    dates: "Dates are easy to guess.",
    topTen: "This is one of the ten most used passwords.",
    topHundred: "This is one of the hundred most used passwords.",
    common: "This is a commonly used password.",
    similarToCommon: "This is similar to a commonly used password.",
    wordByItself: "Single words are easy to guess.",
    namesByThemselves: "Single names or surnames are easy to guess.",
    commonNames: "Common names and surnames are easy to guess.",
    userInputs: "There should not be any personal data, such as your name or email address, in the password.",
    pwned: "This password appeared in a data breach.",
  },
  suggestions: {
    l33t: "Avoid predictable letter substitutions like '@' for 'a'.",
    reverseWords: "Avoid reversed spellings of common words.",
    allUppercase: "Capitalize some, but not all letters.",
    capitalization: "Capitalize more than the first letter.",
    dates: "Avoid dates and years that are associated with you.",
    recentYears: "Avoid recent years.",
    associatedYears: "Avoid years that are associated with you.",
    sequences: "Avoid common character sequences.",
    repeated: "Avoid repeated words and characters.",
    longerKeyboardPattern: "Use longer keyboard patterns and change typing direction multiple times.",
    anotherWord: "Add more words that are less common.",
    useWords: "Use multiple words, but avoid common phrases.",
    noNeed: "You can create strong passwords without using symbols, numbers, or uppercase letters.",
    pwned: "If you use this password elsewhere, you should change it.",
  },
  timeEstimation: {
    ltSecond: "less than a second",
    second: "{base} second",
    seconds: "{base} seconds",
    minute: "{base} minute",
    minutes: "{base} minutes",
    hour: "{base} hour",
    hours: "{base} hours",
    day: "{base} day",
    days: "{base} days",
    month: "{base} month",
    months: "{base} months",
    year: "{base} year",
    years: "{base} years",
    centuries: "centuries",
  },
};

// Built on first use: unpacking the dictionaries takes a moment the worker and `next build` need not pay.
let estimator: ZxcvbnFactory | undefined;
const zxcvbn = () =>
  (estimator ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs, translations, useLevenshteinDistance: true }));

// Words every Beacon user might build a password from.
const SITE_WORDS = ["beacon"];

/**
 * Why `password` may not be chosen (length, control characters, too easy to guess), or null.
 * `personal` are the account's own name and email address, which make a password easy to guess.
 * Every path that sets a password asks this (lib/auth/hooks.ts).
 */
export function newPasswordProblem(password: unknown, personal: string[] = []): string | null {
  const parsed = newPasswordSchema.safeParse(password);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? "Choose another password";
  const { score, feedback } = zxcvbn().check(parsed.data, [...SITE_WORDS, ...personal]);
  if (score >= MIN_PASSWORD_SCORE) return null;
  const advice = [feedback.warning, ...feedback.suggestions].filter(Boolean);
  return ["This password is too easy to guess.", ...(advice.length ? advice : [translations.suggestions.anotherWord])].join(" ");
}
