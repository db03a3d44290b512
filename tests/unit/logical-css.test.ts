import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The site is read left to right and right to left (<html dir>), and so are its emails and the Studio's
 * views of its languages: a style that names the left or the right side is the wrong side in one of
 * them. Sides are named by reading order instead (ps-, ms-, inset-s-, text-start; padding-inline-start,
 * inset-inline-start, text-align: start). Only what styles a page is read: the code's strings (class
 * names, inline styles, the emails' HTML) and the style sheets without their comments. A class is a
 * whole token with a value, so prose ("right-to-left") and comments never count.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCANNED = [
  { folder: 'app', files: /\.(ts|tsx|css)$/ },
  { folder: 'lib/mail', files: /\.(ts|tsx)$/ },
  { folder: 'studio', files: /\.(ts|tsx)$/ },
];

/** What follows a spacing or inset utility: a step, a fraction, a keyword, an arbitrary value or a variable. */
const VALUE = String.raw`(?:\d+(?:\.\d+)?|\d+/\d+|px|auto|full|\[[^\]]+\]|\([^)]+\))`;

/** A Tailwind utility that names a physical side, its variants (focus:, sm:, [&_li]:) and `!` taken off. */
const PHYSICAL_CLASS = new RegExp(
  String.raw`^-?(?:(?:scroll-)?[pm][lr]-${VALUE}|(?:left|right)-${VALUE}|(?:text|float|clear)-(?:left|right)|rounded-(?:[lr]|[tb][lr])(?:-\S+)?|border-[lr](?:-\S+)?)$`,
);

/** A CSS declaration that names a physical side: in a style sheet, a style="" attribute or a Tailwind [property:value]. */
const PHYSICAL_DECLARATION =
  /(?:^|[;{"'[])\s*(?:(?:(?:(?:scroll-)?(?:margin|padding)|border)-(?:left|right)(?:-[a-z]+)*|left|right)\s*:|(?:text-align|float|clear)\s*:\s*(?:left|right)\b)/g;

/** The variants before a utility: each a run of anything but a colon (brackets whole), then a colon. */
const VARIANTS = /^(?:(?:\[[^\]]*\]|[^:[])*:)+/;

/** The physical classes and declarations in a string of code or a style sheet. */
function physicalIn(text: string): string[] {
  const classes = text.split(/[\s"'`<>=;{}]+/).filter((token) => PHYSICAL_CLASS.test(token.replace(VARIANTS, '').replace(/^!|!$/g, '')));
  const declarations = [...text.matchAll(PHYSICAL_DECLARATION)].map(([declaration]) => declaration.replace(/^[;{"'[]?\s*/, ''));
  return [...classes, ...declarations];
}

/** An inline style's key as CSS ("marginLeft" → "margin-left"), with its value when written as a string. */
const declarationOf = (key: string, value: ts.Expression) =>
  `${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}:${ts.isStringLiteralLike(value) ? value.text : '0'}`;

/** `left` and `right` are sides only in a React style object; `marginLeft` or `textAlign: 'left'` anywhere. */
const isStyleObject = (node: ts.Node) =>
  ts.isJsxExpression(node.parent) && ts.isJsxAttribute(node.parent.parent) && node.parent.parent.name.getText() === 'style';

function inSource(file: string, text: string): string[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: string[] = [];
  const report = (node: ts.Node, what: string[]) =>
    found.push(...what.map((item) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${item}`));
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      report(node, physicalIn(node.text));
    } else if (ts.isPropertyAssignment(node) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) {
      const key = node.name.text;
      if ((key !== 'left' && key !== 'right') || isStyleObject(node.parent)) report(node, physicalIn(declarationOf(key, node.initializer)));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A style sheet's findings, line by line, its comments blanked out (their line breaks kept). */
function inStyleSheet(file: string, text: string): string[] {
  const lines = text.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' ')).split('\n');
  const rules = lines.map((line, index) => ({ line: index + 1, text: `;${line}` }));
  return rules.flatMap(({ line, text: rule }) => physicalIn(rule).map((item) => `${file}:${line}: ${item}`));
}

const physicalStylesIn = (file: string, text: string) => (file.endsWith('.css') ? inStyleSheet : inSource)(file, text);

function scannedFiles(): string[] {
  return SCANNED.flatMap(({ folder, files }) =>
    readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => files.test(file) && !/\.test\.tsx?$/.test(file))
      .map((file) => path.join(folder, file)),
  );
}

describe('logical CSS', () => {
  it('the site, the emails and the Studio name no physical side: no left or right, in a class, an inline style or a style sheet', () => {
    const files = scannedFiles();
    expect(files.length).toBeGreaterThan(40);
    expect(files.flatMap((file) => physicalStylesIn(file, readFileSync(path.join(ROOT, file), 'utf8')))).toEqual([]);
  });

  it('finds each physical side where one is planted, and nothing in comments, prose or logical styles', () => {
    const tsx = [
      '// pl-6 in a comment, and ml-3 in right-to-left prose',
      '/* left: 0; text-align: left */',
      'const a = <ul className="mt-4 list-disc pl-6 focus:left-4 sm:-mr-2 [&_li]:!ml-[3px]" />;',
      'const b = `rounded-l-lg ${x} border-r text-right float-left scroll-ml-4 rounded-tr`;',
      "const c = 'padding:4px; margin-left:8px';",
      "const d = <div style={{ marginRight: 4, left: 0, textAlign: 'right' }} />;",
      "const e = { left: diff, right: diff, textAlign: 'start' };",
      "const f = <p className='ps-6 ms-3 inset-s-4 focus:inset-s-4 text-start rounded-s-lg border-e points-inline scale-x-100'>3 days left: read right-to-left</p>;",
      "const g = 'padding-inline-start:8px;text-align:start;margin:0 auto';",
    ].join('\n');
    expect(physicalStylesIn('planted.tsx', tsx).map((found) => found.replace(/^planted\.tsx:/, ''))).toEqual([
      '3: pl-6',
      '3: focus:left-4',
      '3: sm:-mr-2',
      '3: [&_li]:!ml-[3px]',
      '4: rounded-l-lg',
      '4: border-r',
      '4: text-right',
      '4: float-left',
      '4: scroll-ml-4',
      '4: rounded-tr',
      '5: margin-left:',
      '6: margin-right:',
      '6: left:',
      '6: text-align:right',
    ]);
    const css = [
      '/* margin-left: 0 in a comment */',
      'a {',
      '  margin-left: 1rem;',
      '  inset-inline-start: 0;',
      '}',
      '.b { float: right }',
    ];
    expect(physicalStylesIn('planted.css', css.join('\n'))).toEqual(['planted.css:3: margin-left:', 'planted.css:6: float: right']);
  });
});
