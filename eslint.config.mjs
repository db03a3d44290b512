// ESLint (flat config): Next's rules (core web vitals, React, hooks, imports, a11y), the React Compiler-era
// hooks rules, typescript-eslint's recommended rules, and its type-aware ones on TypeScript files.
// `npm run lint` runs it with --max-warnings=0, so a warning fails like an error.
import js from '@eslint/js';
import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

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
    'lib/support/database.types.ts',
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
    // One testkit/ for what tests and scripts share (issue 20): the product never imports it, and tests/
    // and scripts/ never import each other.
    files: ['app/**', 'lib/**', 'deploy/**', 'proxy.ts', 'instrumentation*.ts', 'next.config.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '(^|/)testkit/', message: 'Product code never imports testkit/.' }] }],
    },
  },
  {
    // Tests, the product's commands (scripts/) and the measurements (bench/) share through testkit/ only.
    files: ['tests/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)(scripts|bench)/', message: 'Tests import testkit/, not scripts/ or bench/.' }] },
      ],
    },
  },
  {
    files: ['scripts/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)(tests|bench)/', message: 'Commands import testkit/, not tests/ or bench/.' }] },
      ],
    },
  },
  {
    files: ['bench/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)(tests|scripts)/', message: 'Measurements import testkit/, not tests/ or scripts/.' }] },
      ],
    },
  },
  {
    files: ['testkit/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)(tests|scripts|bench)/', message: 'testkit/ is what the others share: it imports none of them.' }] },
      ],
    },
  },
  {
    // Next's private variables (__NEXT_PRIVATE_*) change with any release and are no contract (issue 51):
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
    // The kit a newcomer reads (issue 30): no command, measurement or shared helper over 300 lines.
    files: ['scripts/**', 'bench/**', 'testkit/**'],
    ignores: ['**/*.test.ts', 'bench/fixture/**'],
    rules: { 'max-lines': ['warn', { max: 300 }] },
  },
  {
    // Sizes a reader can hold at once (issue 20): outside tests no function over 60 lines, and no product
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
