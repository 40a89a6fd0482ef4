// What each pattern of the contract asks for, in an operator's words: the API says these instead of
// "must match pattern ^[a-z][a-z0-9-]{0,39}$" (plugins/errors.ts), and forms show them by the field.
export const patternWords: Record<string, string> = {
  '^[a-z][a-z0-9-]{0,39}$': 'use lower-case letters, digits and dashes, starting with a letter (at most 40)',
  '^[a-z0-9][a-z0-9-]{0,79}$': 'use lower-case letters, digits and dashes (at most 80)',
  '^[^\\s@]+@[^\\s@]+$': 'must be an email address, such as name@bank.example',
  '^[A-Za-z]{3}$': 'must be a three-letter currency code, such as INR',
  '^https?://': 'must be a web address starting with https://',
  '^/[a-z0-9/-]{0,120}$': 'must be a path starting with /, in lower-case letters, digits, / and -',
  '^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$': 'use letters, digits and . + _ -, starting with a letter or digit (at most 64)',
  '\\S': 'cannot be blank',
  '^[^\\u0000-\\u001f\\u007f]*\\S[^\\u0000-\\u001f\\u007f]*$': 'cannot be blank, nor hold control characters',
  '^\\d{1,12}(\\.\\d{1,2})?$': 'must be an amount, such as 1500 or 1500.50',
};
