import { defineField } from 'sanity';

type CopyOptions = {
  title?: string;
  description?: string;
  /** Characters; the layout's limit for this text. */
  max?: number;
  /** A multi-line text box instead of a one-line input. */
  multiline?: boolean;
  /** The {tokens} this text may use; any other {word} is an error (a misspelt token would reach readers as is). */
  tokens?: readonly string[];
};

const TOKEN = /\{(\w+)\}/g;

/** The problem with the {tokens} in `text`, if it uses one outside `allowed`. */
export function unknownToken(text: unknown, allowed: readonly string[]): true | string {
  if (typeof text !== 'string') return true;
  const unknown = [...text.matchAll(TOKEN)].map((match) => match[1]!).filter((name) => !allowed.includes(name));
  if (unknown.length === 0) return true;
  const may = allowed.length > 0 ? `This text may use ${allowed.map((name) => `{${name}}`).join(', ')}.` : 'This text uses no tokens.';
  return `Unknown token ${unknown.map((name) => `{${name}}`).join(', ')}. ${may}`;
}

/**
 * A sentence or label the site shows, required: the page would show a hole without it. Every visible
 * text of the site is one of these (or a field written the same way before this helper existed).
 */
export function copyField(name: string, { title, description, max = 120, multiline = false, tokens = [] }: CopyOptions = {}) {
  return defineField({
    name,
    title,
    description,
    type: multiline ? 'text' : 'string',
    ...(multiline ? { rows: 2 } : {}),
    validation: (rule) =>
      rule
        .required()
        .max(max)
        .custom((text) => unknownToken(text, tokens)),
  });
}

/** An object of copy fields, required as a whole, collapsed in the Studio (used where a group of texts belongs to one place). */
export function copyGroup(name: string, title: string, description: string, fields: ReturnType<typeof copyField>[]) {
  return defineField({
    name,
    title,
    description,
    type: 'object',
    options: { collapsible: true, collapsed: true },
    fields,
    validation: (rule) => rule.required(),
  });
}
