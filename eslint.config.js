import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/out/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'error',
    },
  },
  {
    // Only the path module may ask the OS where home and temp are, so tests never touch the real home.
    files: ['src/**/*.ts', 'harvesters/**/*.ts', 'proposals/**/*.ts'],
    ignores: ['src/config/paths.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='homedir']", message: 'Use src/config/paths.ts.' },
        { selector: "CallExpression[callee.property.name='tmpdir']", message: 'Use src/config/paths.ts.' },
      ],
    },
  },
  {
    // The core never writes to the terminal or exits; the CLI renders and maps errors to exit codes.
    files: ['src/**/*.ts', 'harvesters/**/*.ts', 'proposals/**/*.ts'],
    ignores: ['src/cli/**', 'src/tools/**', '**/*.test.ts', '**/*.bench.ts'],
    // The layer rules ("May depend on" in ARCHITECTURE.md) are checked by dependency-cruiser (.dependency-cruiser.cjs).
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'commander', message: 'CLI only.' }] }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'exit', message: 'Only src/cli/main.ts exits.' },
        { object: 'process', property: 'stdout', message: 'Return data; the CLI renders it.' },
        {
          object: 'process',
          property: 'env',
          message: 'Take env as an argument: only src/cli reads process.env.',
        },
        {
          object: 'process',
          property: 'cwd',
          message: 'Take the folder as an argument: only src/cli asks for the cwd.',
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      'no-console': 'off',
    },
  },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  // Plain Node scripts shipped with the agent integrations (hooks run without a build).
  {
    files: ['integrations/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', setTimeout: 'readonly' } },
  },
);
