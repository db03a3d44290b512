// ESLint (flat config): Next's rules (core web vitals, React, hooks, imports, a11y), the React Compiler-era
// hooks rules, typescript-eslint's recommended rules, and its type-aware ones on TypeScript files.
// `npm run lint` runs it with --max-warnings=0, so a warning fails like an error.
import js from '@eslint/js';
import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

// A workspace package (packages/) is imported by its name, through its entry: never a file inside it.
const DEEP_PACKAGE_IMPORT = {
  regex: '^@school-site/[^/]+/(?!browser$)|(^|/)packages/[^/]+/',
  message: 'Import a workspace package by its name (its entry, or /browser), never a file inside it.',
};

/** no-restricted-imports with these patterns and the packages' own rule, which every folder keeps. */
const restrictImports = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns: [...patterns, DEEP_PACKAGE_IMPORT] }] });

export default defineConfig(
  globalIgnores([
    '.tools/**',
    '.next*/**',
    'bench/fixture/.next/**',
    'bench/.tmp/**',
    '.data/**',
    'out/**',
    'coverage/**',
    'test-results/**',
    'playwright-report/**',
    'next-env.d.ts',
    // Generated: `npm run typegen` (Sanity TypeGen, supabase/typegen.ts).
    'sanity.types.ts',
    'lib/store/database.types.ts',
  ]),
  js.configs.recommended,
  ...nextCoreWebVitals,
  ...nextTypescript,
  // Next's config has the plugin's `recommended` rules; `recommended-latest` adds void-use-memo.
  reactHooks.configs.flat['recommended-latest'],
  {
    // Next parses JavaScript with Babel and only .ts/.tsx with TypeScript; .d.mts files are TypeScript.
    files: ['**/*.{mts,cts}'],
    languageOptions: { parser: tseslint.parser },
  },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // An async function without await is how this code returns a promise where one is expected (next.config's
      // headers(), Server Components, test doubles); promise misuse is caught by no-floating-promises,
      // no-misused-promises and await-thenable.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    rules: {
      // `const { dropped: _, ...rest } = object` is how a key is left out of a copy.
      '@typescript-eslint/no-unused-vars': ['warn', { ignoreRestSiblings: true }],
    },
  },
  {
    files: ['tests/**', '**/*.test.ts'],
    rules: {
      // Tests assert on parsed JSON (`await response.json()`, JSON.parse: any), edit seed documents as loose
      // records, and use vitest's asymmetric matchers (expect.stringMatching: any). A wrong shape fails the
      // assertion, so typing each body would add casts, not safety.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // One testkit/ for what tests and scripts share: the product never imports it, and tests/
    // and scripts/ never import each other.
    files: ['app/**', 'lib/**', 'deploy/**', 'proxy.ts', 'instrumentation*.ts', 'next.config.ts'],
    ignores: ['**/*.test.ts'],
    rules: restrictImports({ regex: '(^|/)testkit/', message: 'Product code never imports testkit/.' }),
  },
  {
    // Tests, the product's commands (scripts/) and the measurements (bench/) share through testkit/ only.
    files: ['tests/**'],
    rules: restrictImports({ regex: '(^|/)(scripts|bench)/', message: 'Tests import testkit/, not scripts/ or bench/.' }),
  },
  {
    files: ['scripts/**'],
    rules: restrictImports({ regex: '(^|/)(tests|bench)/', message: 'Commands import testkit/, not tests/ or bench/.' }),
  },
  {
    files: ['bench/**'],
    rules: restrictImports({ regex: '(^|/)(tests|scripts)/', message: 'Measurements import testkit/, not tests/ or scripts/.' }),
  },
  {
    files: ['testkit/**'],
    ignores: ['**/*.test.ts'],
    rules: restrictImports({
      regex: '(^|/)(tests|scripts|bench)/',
      message: 'testkit/ is what the others share: it imports none of them.',
    }),
  },
  {
    files: ['packages/**', 'schemas/**', 'studio/**', 'supabase/**', '*.{ts,mjs}'],
    rules: restrictImports(),
  },
  {
    // Next's private variables (__NEXT_PRIVATE_*) change with any release and are no contract:
    // the product uses what Next documents, such as its cache handlers (lib/cache/tag-expiry.ts).
    files: ['app/**', 'lib/**', 'proxy.ts', 'instrumentation*.ts', 'next.config.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['MemberExpression[property.name=/^__NEXT_PRIVATE/]', 'Literal[value=/^__NEXT_PRIVATE/]'].map((selector) => ({
          selector,
          message: "Next's private variables are not an API: use a documented one.",
        })),
      ],
    },
  },
  {
    // The kit a newcomer reads: no command, measurement or shared helper over 300 lines.
    files: ['scripts/**', 'bench/**', 'testkit/**'],
    ignores: ['**/*.test.ts', 'bench/fixture/**'],
    rules: { 'max-lines': ['warn', { max: 300 }] },
  },
  {
    // Sizes a reader can hold at once: outside tests no function over 60 lines, and no product
    // file over 200, counted as a reader sees them: blank lines and comments included.
    files: ['**/*.{ts,tsx,mts,mjs}'],
    ignores: ['tests/**', '**/*.test.ts', '**/*.spec.ts'],
    rules: { 'max-lines-per-function': ['warn', { max: 60 }] },
  },
  {
    files: ['app/**', 'lib/**', 'proxy.ts', 'instrumentation*.ts', 'schemas/**', 'studio/**', '*.config.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines': ['warn', { max: 200 }] },
  },
);
